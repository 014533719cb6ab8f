"""Exporters for the formats registered in chargen.formats (Foundry VTT, stat blocks)."""
