-- The owner's note on a closed incident (IncidentNoted): what happened, in a few lines.
ALTER TABLE incidents ADD COLUMN note text;
