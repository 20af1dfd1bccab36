-- Reminders as the API lists them: one JSON document each; the project's name is joined at read time.
CREATE TABLE reminder_list (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  project_id uuid NOT NULL,
  due_date timestamptz NOT NULL,
  doc jsonb NOT NULL
);
CREATE INDEX reminder_list_by_user ON reminder_list (user_id, due_date);
CREATE INDEX reminder_list_by_project ON reminder_list (project_id, due_date);

-- Projects as this service knows them (from the projects service's events): ownership and names.
CREATE TABLE projects (
  project_id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  name text NOT NULL,
  deleted boolean NOT NULL DEFAULT false
);

-- Which reminders belong to which project, for the cascade when a project is deleted.
CREATE TABLE project_reminders (
  reminder_id uuid PRIMARY KEY,
  project_id uuid NOT NULL
);
CREATE INDEX project_reminders_by_project ON project_reminders (project_id);
