-- Each listed project's document as JSON text without its closing brace, kept by PostgreSQL itself:
-- the list appends the caller's fields (workspaceId, role) to it as text, where merging them into the
-- jsonb cost about as much again as the rest of the read (GET /api/projects, `node bench/run.ts projects`).
ALTER TABLE project_list ADD COLUMN doc_prefix text GENERATED ALWAYS AS (left(doc::text, -1)) STORED;
