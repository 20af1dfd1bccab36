-- Through the server's GitHub App: when the account took the repository out of the app's reach
-- (GitHub's installation_repositories, removed), so its card says that nothing from it arrives.
-- NULL: the app reaches it, or the connection is a token's.
ALTER TABLE github_links ADD COLUMN out_of_reach_since timestamptz;
