"""Flattening (S3-S9, S11, S19): the primitives that turn a body and parameters into nested
and flat input schemas."""
