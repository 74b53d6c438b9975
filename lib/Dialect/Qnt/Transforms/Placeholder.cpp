// Passes arrive with the integer-only pipeline.
