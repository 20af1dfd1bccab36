-- Who each reminder reaches (its assignee): its author for every reminder made before assignees. The
-- schedule's user_id is the assignee from now on (the projection writes it), as it was the author.
UPDATE reminder_list SET doc = doc || jsonb_build_object('assigneeId', user_id) WHERE NOT doc ? 'assigneeId';
