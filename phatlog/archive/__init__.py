"""Archives: the inputs a command is given, batches, duplicates, selection, seat views against the master,
atomic output, conversion, and the cluster map."""
