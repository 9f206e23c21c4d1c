-- +goose Up
-- A post's accepted answer (core/community): its author marks one comment
-- of a colleague as the answer. answerer_id is that comment's author when
-- it was accepted: what a community challenge counts (accepted answers
-- given in a period). Deleting the comment or the post removes the row.
CREATE TABLE community_accepted_answers (
    post_id     uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    comment_id  uuid NOT NULL UNIQUE REFERENCES engagement_comments (id) ON DELETE CASCADE,
    answerer_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    accepted_by uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    accepted_at timestamptz NOT NULL DEFAULT now(),
    CHECK (answerer_id <> accepted_by)
);
CREATE INDEX community_accepted_answers_answerer_idx ON community_accepted_answers (answerer_id, accepted_at);
CREATE INDEX community_accepted_answers_accepted_by_idx ON community_accepted_answers (accepted_by);

-- +goose Down
DROP TABLE community_accepted_answers;
