"""JSON Schema, no OpenAPI: dialects, pointers and the one subschema walker, keyword rules
(S1.4), the 3.0 conversion, request and response views (S16.6), patterns, and the validators
a call is judged by (S13.3)."""
