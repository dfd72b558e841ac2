./spaa-phases --output-progress Experiment
