./spaa-validate tests/data/validate/thread_pid_conflict.spaa
