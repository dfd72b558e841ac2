./spaa-hotspots --test-compatibility Experiment
