# spaa-tools: LAMI stack-profile analyses.
#
#   make               the programs (./spaa-*); tests are built by make check
#   make check         layers, unit, schema, golden, cli tests and fuzz replay: what
#                      CI runs
#   make asan          rebuild with ASan and UBSan, then the whole check
#   make tsan          rebuild with ThreadSanitizer, then the whole check
#   make valgrind      unit, golden, cli tests and fuzz replay under valgrind
#   make fuzz          libFuzzer targets of tests/fuzz/ (clang), each run for
#                      FUZZ_SECONDS (default 60) from seeds in tests/data/;
#                      FUZZ_TARGETS picks some (tests/fuzz/README.md)
#   make golden        rewrite tests/golden/*.out from the current programs
#                      (review the diff before committing)
#   make demo          spaa-hotspots on examples/cwork.spaa.zst
#   make screenshots   the README's pictures in docs/ (headless Chromium;
#                      look at them before committing)
#   make bench         throughput and peak RSS on generated profiles in
#                      build/bench/ (tests/bench/README.md); never fails
#   make install       PREFIX=/usr/local, DESTDIR=staging directory: programs,
#                      man pages, schemas, bash completions, Trace Compass
#                      descriptors and custom parser, which the installed
#                      spaa-tracecompass-setup puts into a workspace
#                      (tests/cli_install.py checks the list and runs it)
#   make uninstall     removes what install installed
#   make clean
#
# V=1 shows the compiler command lines.  CFLAGS (default -O2 -g), CPPFLAGS,
# LDFLAGS and LDLIBS are the user's and add to the project's flags.
#
# Layout, picked up by wildcard (adding a file needs no edit here):
#   common/LAYER/*.c        -> build/libspaa.a (common/report/main.c apart:
#                              it owns main() of the analyses, compiled once
#                              per analysis as build/common/report/main-NAME.o)
#   common/LAYER/NAME.proto -> build/gen/LAYER/NAME.pb-c.[ch] (protoc-c), in
#                              build/libspaa.a; included as "LAYER/NAME.pb-c.h"
#   analyses/NAME.c         -> spaa-NAME, with common/report/main.c
#   tools/NAME.c            -> spaa-NAME, with its own main() (spaa-report
#                              also links every analyses/NAME.o)
#   tests/unit/check_MOD.c  -> build/tests/unit/check_spaa, which runs every
#                              suite MOD_suite() through tests/unit/runner.c
# Every object, library and generated file is under build/, the programs
# at the top (./spaa-hotspots ...) where the README and the tests run them.
# common/README.md says which layer may include which; tests/layers.sh
# checks it.
#
# The first build installs missing dependencies (target deps,
# tools/install-deps.sh).  build/flavour records the compiler and flags; when
# they change (make asan, then make) every object is rebuilt.

MAKEFLAGS += --no-builtin-rules
.SUFFIXES:
.DELETE_ON_ERROR:

PREFIX ?= /usr/local
bindir = $(PREFIX)/bin
datadir = $(PREFIX)/share
mandir = $(datadir)/man
pkgdatadir = $(datadir)/spaa-tools
schemadir = $(pkgdatadir)/schemas
tracecompassdir = $(pkgdatadir)/tracecompass
bashcompdir = $(datadir)/bash-completion/completions

CFLAGS ?= -O2 -g
PKG_CONFIG ?= pkg-config
PYTHON ?= /usr/bin/python3
INSTALL ?= install

# Recursively expanded on purpose: pkg-config runs when a recipe needs the
# flags, after deps has installed what was missing.  The library needs
# zstd, zlib and protobuf-c (the pprof reader); cJSON is only the tests'
# second JSON parser (and the bench's naive reader).
LIB_PKGS = libzstd zlib libprotobuf-c
PROTOC_C ?= protoc-c
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(LIB_PKGS))
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(LIB_PKGS))
CHECK_CFLAGS = $(shell $(PKG_CONFIG) --cflags check libcjson)
CHECK_LIBS = $(shell $(PKG_CONFIG) --libs check libcjson)
CJSON_LIBS = $(shell $(PKG_CONFIG) --libs libcjson)

B = build
SPAA_CFLAGS = -std=c11 -D_DEFAULT_SOURCE -D_FILE_OFFSET_BITS=64 \
	-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wformat=2 -Wvla -Wwrite-strings \
	-Icommon -I$(B)/gen -MMD -MP $(PKG_CFLAGS)

# SANITIZE=address,undefined adds the sanitizers (make asan sets it).
SANITIZE =
SANITIZE_FLAGS = $(if $(SANITIZE),-fsanitize=$(SANITIZE) \
	-fno-sanitize-recover=all -fno-omit-frame-pointer)

ALL_CFLAGS = $(SPAA_CFLAGS) $(SANITIZE_FLAGS) -pthread $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(SANITIZE_FLAGS) -pthread $(LDFLAGS)
ALL_LDLIBS = $(PKG_LIBS) -lm $(LDLIBS)

# Each check_MOD.c defines "Suite *MOD_suite(void)".  Declaring all suites
# before it (from suites.inc) satisfies -Wmissing-prototypes and has the
# compiler check the signature; "struct Suite" is Check's Suite.
SUITES_INC = $(B)/tests/unit/suites.inc
SUITE_DECLS = '-DSUITE(m)=struct Suite *m\#\#_suite(void);' \
	-include $(SUITES_INC)

LAYERS = model io formats analysis report
MAIN_SRC = common/report/main.c
LIB_SRCS = $(filter-out $(MAIN_SRC),$(foreach l,$(LAYERS),$(wildcard common/$(l)/*.c)))
PROTO_SRCS = $(foreach l,$(LAYERS),$(wildcard common/$(l)/*.proto))
PROTO_C = $(PROTO_SRCS:common/%.proto=$(B)/gen/%.pb-c.c)
PROTO_H = $(PROTO_C:.c=.h)
LIB_OBJS = $(LIB_SRCS:%.c=$(B)/%.o) $(PROTO_C:.c=.o)
LIB = $(B)/libspaa.a
ANALYSIS_SRCS = $(wildcard analyses/*.c)
TOOL_SRCS = $(wildcard tools/*.c)
ANALYSES = $(patsubst analyses/%.c,spaa-%,$(ANALYSIS_SRCS))
TOOLS = $(patsubst tools/%.c,spaa-%,$(TOOL_SRCS))
PROGRAMS = $(ANALYSES) $(TOOLS)
UNIT_SRCS = $(wildcard tests/unit/check_*.c)
UNIT_OBJS = $(UNIT_SRCS:%.c=$(B)/%.o)
UNIT_HELPERS = $(B)/tests/unit/testutil.o
UNIT_RUNNER = $(B)/tests/unit/check_spaa
# Each fuzz target tests/fuzz/fuzz_NAME.c is linked twice: with replay.c
# into build/tests/fuzz/replay_NAME (make check replays the seeds and past
# crashes) and with libFuzzer into build/fuzz/fuzz_NAME (make fuzz).
FUZZ_SRCS = $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_NAMES = $(patsubst tests/fuzz/fuzz_%.c,%,$(FUZZ_SRCS))
FUZZ_REPLAY = $(patsubst %,$(B)/tests/fuzz/replay_%,$(FUZZ_NAMES))
FUZZ_HELPERS = $(B)/tests/fuzz/util.o $(B)/tests/fuzz/replay.o
TEST_PROGRAMS = $(UNIT_RUNNER) $(FUZZ_REPLAY)
ANALYSIS_OBJS = $(ANALYSIS_SRCS:%.c=$(B)/%.o)
# main.c once per analysis, naming its descriptor (report/analysis.h)
MAIN_OBJS = $(ANALYSIS_SRCS:analyses/%.c=$(B)/common/report/main-%.o)
ALL_OBJS = $(LIB_OBJS) $(MAIN_OBJS) \
	$(ANALYSIS_OBJS) $(TOOL_SRCS:%.c=$(B)/%.o) $(UNIT_OBJS) \
	$(UNIT_HELPERS) $(B)/tests/unit/runner.o $(FUZZ_SRCS:%.c=$(B)/%.o) \
	$(FUZZ_HELPERS)

MAN1 = $(wildcard man/*.1)
MAN7 = $(wildcard man/*.7)
SCHEMAS = $(wildcard schemas/*.json)

DEMO_PROFILE = examples/cwork.spaa.zst

# make asan: clang when there is one.  Sanitizer reports make tests fail:
# the unit runner sees a failed test, tests/golden.sh a report on stderr.
ASAN_CC = $(shell command -v clang >/dev/null 2>&1 && echo clang || echo gcc)
ASAN_ENV = ASAN_OPTIONS=detect_leaks=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
VALGRIND = valgrind --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect -q

ifeq ($(V),1)
Q =
QUIET_CC =
QUIET_LINK =
QUIET_AR =
else
Q = @
QUIET_CC = @echo '  CC      $@';
QUIET_LINK = @echo '  LINK    $@';
QUIET_AR = @echo '  AR      $@';
endif

.PHONY: all check asan tsan valgrind fuzz golden demo screenshots bench install uninstall \
	clean deps FORCE

all: $(PROGRAMS)

# ---- build -------------------------------------------------------------------

$(LIB): $(LIB_OBJS)
	$(QUIET_AR)rm -f $@ && $(AR) rcs $@ $^

$(ANALYSES): spaa-%: $(B)/analyses/%.o $(B)/common/report/main-%.o $(LIB)
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(ALL_LDLIBS)

# spaa-report runs every analysis in process.
spaa-report: $(ANALYSIS_OBJS)
$(TOOLS): spaa-%: $(B)/tools/%.o $(LIB)
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LIB) \
		$(ALL_LDLIBS)

$(UNIT_RUNNER): $(B)/tests/unit/runner.o $(UNIT_OBJS) $(UNIT_HELPERS) $(LIB)
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(ALL_LDLIBS)

# fuzz_spaa runs spaa-hotspots' analysis on what it loads.
$(B)/tests/fuzz/replay_spaa: $(B)/analyses/hotspots.o
$(FUZZ_REPLAY): $(B)/tests/fuzz/replay_%: $(B)/tests/fuzz/fuzz_%.o $(FUZZ_HELPERS) $(LIB)
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(LIB) \
		$(ALL_LDLIBS)

$(B)/%.o: %.c
	$(Q)mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(MAIN_OBJS): $(B)/common/report/main-%.o: $(MAIN_SRC)
	$(Q)mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) -DSPAA_ANALYSIS=spaa_analysis_$* -c -o $@ $<

# protoc-c writes NAME.pb-c.c and NAME.pb-c.h at once.
$(B)/gen/%.pb-c.c $(B)/gen/%.pb-c.h: common/%.proto | deps
	$(Q)mkdir -p $(B)/gen
	@echo '  PROTOC  $<'
	$(Q)$(PROTOC_C) --proto_path=common --c_out=$(B)/gen $<

$(B)/gen/%.o: $(B)/gen/%.c
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/tests/unit/runner.o: tests/unit/runner.c $(SUITES_INC)
	$(Q)mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -I$(B)/tests/unit -c -o $@ $<

$(UNIT_HELPERS): $(B)/tests/unit/%.o: tests/unit/%.c
	$(Q)mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -c -o $@ $<

$(UNIT_OBJS): $(B)/tests/unit/%.o: tests/unit/%.c $(SUITES_INC)
	$(Q)mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) $(SUITE_DECLS) -c -o $@ $<

# Rewritten only when the list of suites changes.
$(SUITES_INC): FORCE
	$(Q)mkdir -p $(@D) && for f in $(UNIT_SRCS); do \
		m=$${f#tests/unit/check_}; echo "SUITE($${m%.c})"; \
	done >$@+ && \
	if cmp -s $@+ $@; then rm -f $@+; \
	else mv $@+ $@ && echo '  GEN     $@'; fi

$(ALL_OBJS): build/flavour | deps $(PROTO_H)

# Rewritten only when the compiler or the flags change, so that switching
# between normal and sanitizer builds rebuilds everything.
build/flavour: FORCE | deps
	$(Q)mkdir -p build && \
	printf '%s\n' '$(subst ','\'',$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(ALL_LDLIBS))' >$@+ && \
	if cmp -s $@+ $@; then rm -f $@+; \
	elif [ -f $@ ]; then mv $@+ $@ && \
		echo '  FLAVOUR changed to $(CC) $(SANITIZE_FLAGS): rebuilding'; \
	else mv $@+ $@; fi

deps:
	$(Q)sh tools/install-deps.sh

FORCE:

-include $(ALL_OBJS:.o=.d)

# ---- tests -------------------------------------------------------------------

# Every step runs even when an earlier one failed, so one run shows all
# failures; the exit status is non-zero if any failed.
check: all $(TEST_PROGRAMS)
	$(Q)failed=; \
	echo '== layers'; bash tests/layers.sh || failed="$$failed layers"; \
	echo '== unit tests'; $(UNIT_RUNNER) || failed="$$failed unit"; \
	echo '== schemas'; PYTHON=$(PYTHON) bash tests/schemas.sh || \
		failed="$$failed schemas"; \
	echo '== golden tests'; PYTHON=$(PYTHON) bash tests/golden.sh || \
		failed="$$failed golden"; \
	if [ -f tests/cli.sh ]; then \
		echo '== cli tests'; SPAA_SANITIZE='$(SANITIZE)' bash tests/cli.sh || \
			failed="$$failed cli"; \
	fi; \
	echo '== fuzz replay'; bash tests/fuzz/run.sh --replay || \
		failed="$$failed fuzz-replay"; \
	if [ -n "$$failed" ]; then echo "check: FAILED:$$failed"; exit 1; fi; \
	echo 'check: all passed'

asan:
	$(ASAN_ENV) $(MAKE) check CC=$(ASAN_CC) SANITIZE=address,undefined

# The decoding thread reads, decompresses and scans ahead of the reader
# (common/input.c): every run of the suite has it at work.
tsan:
	TSAN_OPTIONS=halt_on_error=1 $(MAKE) check CC=$(ASAN_CC) SANITIZE=thread

# The unit tests in one process (CK_FORK=no) so that valgrind sees them, and
# every program the golden and cli tests and the fuzz replay run.
valgrind: all $(TEST_PROGRAMS)
	$(Q)sh tools/install-deps.sh --valgrind
	$(Q)failed=; \
	echo '== unit tests under valgrind'; \
	CK_FORK=no $(VALGRIND) $(UNIT_RUNNER) || failed="$$failed unit"; \
	echo '== golden tests under valgrind'; \
	SPAA_TEST_WRAPPER='$(VALGRIND)' GOLDEN_TIMEOUT=600 PYTHON=$(PYTHON) \
		bash tests/golden.sh || failed="$$failed golden"; \
	echo '== cli tests under valgrind'; \
	SPAA_TEST_WRAPPER='$(VALGRIND)' PYTHON=$(PYTHON) bash tests/cli.sh || \
		failed="$$failed cli"; \
	echo '== fuzz replay under valgrind'; \
	SPAA_TEST_WRAPPER='$(VALGRIND)' bash tests/fuzz/run.sh --replay || \
		failed="$$failed fuzz-replay"; \
	if [ -n "$$failed" ]; then echo "valgrind: FAILED:$$failed"; exit 1; fi; \
	echo 'valgrind: all passed'

# ---- fuzz ----------------------------------------------------------------------

# Not part of all or check: clang's libFuzzer with ASan and UBSan, objects
# in build/fuzz/ apart from the ordinary build.
FUZZ_SECONDS = 60
FUZZ_TARGETS = $(FUZZ_NAMES)
FUZZ_CC = clang
FUZZ_DIR = build/fuzz
FUZZ_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -g -O1 -pthread
FUZZ_LIB_OBJS = $(LIB_SRCS:%.c=$(FUZZ_DIR)/%.o) \
	$(PROTO_C:$(B)/gen/%.c=$(FUZZ_DIR)/gen/%.o)

$(FUZZ_DIR)/%.o: %.c | deps $(PROTO_H)
	$(Q)mkdir -p $(@D)
	$(QUIET_CC)$(FUZZ_CC) $(SPAA_CFLAGS) $(FUZZ_FLAGS) \
		-fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_DIR)/gen/%.o: $(B)/gen/%.c | deps
	$(Q)mkdir -p $(@D)
	$(QUIET_CC)$(FUZZ_CC) $(SPAA_CFLAGS) $(FUZZ_FLAGS) \
		-fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_DIR)/fuzz_spaa: $(FUZZ_DIR)/analyses/hotspots.o
$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/tests/fuzz/fuzz_%.o \
		$(FUZZ_DIR)/tests/fuzz/util.o $(FUZZ_LIB_OBJS)
	$(QUIET_LINK)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ \
		$(PKG_LIBS) -lm

# Kept between runs (make would delete them as intermediate files).
.SECONDARY: $(FUZZ_LIB_OBJS) $(FUZZ_DIR)/analyses/hotspots.o \
	$(FUZZ_SRCS:%.c=$(FUZZ_DIR)/%.o) $(FUZZ_DIR)/tests/fuzz/util.o

-include $(wildcard $(FUZZ_DIR)/*/*.d $(FUZZ_DIR)/*/*/*.d $(FUZZ_DIR)/*/*/*/*.d)

fuzz: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)
	$(Q)FUZZ_DIR=$(FUZZ_DIR) FUZZ_SECONDS=$(FUZZ_SECONDS) \
		bash tests/fuzz/run.sh $(FUZZ_TARGETS)

golden: all
	PYTHON=$(PYTHON) bash tests/golden.sh --update

# ---- demo ----------------------------------------------------------------------

demo: spaa-hotspots
	$(Q)if [ ! -f $(DEMO_PROFILE) ]; then \
		echo "demo: $(DEMO_PROFILE) is missing (the example profile of" \
			"the README); nothing to run" >&2; \
		exit 1; \
	fi
	@echo 'spaa-hotspots: where the time goes in $(DEMO_PROFILE), 10 rows per table.'
	@echo '$$ ./spaa-hotspots --format text --limit 10 $(DEMO_PROFILE)'
	@./spaa-hotspots --format text --limit 10 $(DEMO_PROFILE)
	@echo
	@echo 'Without --format text the same tables come as the LAMI results object'
	@echo 'that Trace Compass and scripts read.  More: README.md (a five-minute'
	@echo 'tour), spaa-hotspots(1), spaa-tools(7).'

screenshots: all
	$(Q)sh tools/screenshots.sh docs

# ---- bench ---------------------------------------------------------------------

# Not part of all or check.  The generated profiles stay in build/bench/ and
# are reused; BENCH_BIG=1 adds the 10x-samples memory check.
BENCH_DIR = build/bench

$(BENCH_DIR)/gen: tests/bench/gen.c build/flavour | deps
	$(Q)mkdir -p $(BENCH_DIR)
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< -lm $(LDLIBS)

$(BENCH_DIR)/naive: tests/bench/naive.c build/flavour | deps
	$(Q)mkdir -p $(BENCH_DIR)
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) $(ALL_LDFLAGS) -o $@ $< \
		$(CJSON_LIBS) $(ALL_LDLIBS)

$(BENCH_DIR)/timed: tests/bench/timed.c build/flavour | deps
	$(Q)mkdir -p $(BENCH_DIR)
	$(QUIET_LINK)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LDLIBS)

bench: all $(BENCH_DIR)/gen $(BENCH_DIR)/naive $(BENCH_DIR)/timed
	$(Q)sh tools/install-deps.sh --bench || \
		echo 'bench: jq is missing; its reference figure is left out'
	$(Q)BENCH_DIR=$(BENCH_DIR) bash tests/bench/run.sh

# ---- install -------------------------------------------------------------------

# Trace Compass descriptors: one per analysis, named as Trace Compass names
# its own (tools/tracecompass-descriptor.sh).  Recursively expanded, so the
# script runs only for install and uninstall.
TC_DESCRIPTORS = $(foreach a,$(ANALYSIS_SRCS),\
	$(shell sh tools/tracecompass-descriptor.sh --file-name $(a)))
COMPLETION = tools/spaa-completion.bash
# The Custom Text trace definition that opens a SPAA file as a trace.
TC_PARSER = tools/tracecompass-parser.xml

install: all
	$(INSTALL) -d '$(DESTDIR)$(bindir)' '$(DESTDIR)$(schemadir)' \
		'$(DESTDIR)$(mandir)/man1' '$(DESTDIR)$(mandir)/man7' \
		'$(DESTDIR)$(tracecompassdir)' '$(DESTDIR)$(bashcompdir)'
	$(INSTALL) -m 755 $(PROGRAMS) '$(DESTDIR)$(bindir)'
	$(INSTALL) -m 644 $(SCHEMAS) '$(DESTDIR)$(schemadir)'
	$(INSTALL) -m 644 $(MAN1) '$(DESTDIR)$(mandir)/man1'
	$(INSTALL) -m 644 $(MAN7) '$(DESTDIR)$(mandir)/man7'
	$(Q)for p in $(PROGRAMS); do \
		$(INSTALL) -m 644 $(COMPLETION) '$(DESTDIR)$(bashcompdir)'/$$p || \
			exit 1; \
	done
	$(INSTALL) -m 644 $(TC_PARSER) '$(DESTDIR)$(tracecompassdir)'
	$(Q)for a in $(ANALYSIS_SRCS); do \
		f='$(DESTDIR)$(tracecompassdir)'/$$(sh tools/tracecompass-descriptor.sh \
			--file-name $$a) && \
		sh tools/tracecompass-descriptor.sh $$a '$(bindir)' >"$$f" && \
		chmod 644 "$$f" || exit 1; \
	done

# Removes exactly what install puts there, then the directories install
# made, from the deepest, each only if that leaves it empty (rmdir never
# removes a directory that holds anything).
uninstall:
	rm -f $(addprefix '$(DESTDIR)$(bindir)'/,$(PROGRAMS)) \
		$(addprefix '$(DESTDIR)$(schemadir)'/,$(notdir $(SCHEMAS))) \
		$(addprefix '$(DESTDIR)$(mandir)/man1'/,$(notdir $(MAN1))) \
		$(addprefix '$(DESTDIR)$(mandir)/man7'/,$(notdir $(MAN7))) \
		$(addprefix '$(DESTDIR)$(bashcompdir)'/,$(PROGRAMS)) \
		$(addprefix '$(DESTDIR)$(tracecompassdir)'/,$(TC_DESCRIPTORS)) \
		'$(DESTDIR)$(tracecompassdir)'/$(notdir $(TC_PARSER))
	rmdir '$(DESTDIR)$(schemadir)' '$(DESTDIR)$(tracecompassdir)' \
		'$(DESTDIR)$(pkgdatadir)' '$(DESTDIR)$(bashcompdir)' \
		'$(DESTDIR)$(datadir)/bash-completion' '$(DESTDIR)$(mandir)/man1' \
		'$(DESTDIR)$(mandir)/man7' '$(DESTDIR)$(mandir)' \
		'$(DESTDIR)$(bindir)' '$(DESTDIR)$(datadir)' 2>/dev/null || true

# ---- clean ---------------------------------------------------------------------

clean:
	rm -f $(PROGRAMS)
	rm -rf build tests/out
