./spaa-convert tests/data/pprof/synthetic.pb
