"""The model: plain data every stage shares — JSON types, the pipeline's values, errors,
options, HTTP tables and limits. Imports nothing else of toolshape."""
