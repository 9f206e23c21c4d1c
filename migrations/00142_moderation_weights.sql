-- +goose Up
-- Reports weigh by who makes them: an account a day old or with an
-- unconfirmed e-mail weighs nothing, a week old half, and a reporter whose
-- past reports moderators rejected weighs less (weight, 0..1). A target is
-- hidden pending review when its open reports weigh HideThreshold together
-- (open_weight). After a moderator restores it, reports no longer hide it
-- (auto_hide false): only a moderator does.
ALTER TABLE moderation_reports ADD COLUMN weight real NOT NULL DEFAULT 1 CHECK (weight >= 0 AND weight <= 1);
-- The reason category the reporter picked; the free text is then optional
-- (required for 'outro' and when no category is given).
ALTER TABLE moderation_reports ADD COLUMN category text
    CHECK (category IN ('spam', 'ofensivo', 'desinformacao', 'improprio', 'outro'));
ALTER TABLE moderation_reports DROP CONSTRAINT moderation_reports_reason_check;
ALTER TABLE moderation_reports ADD CONSTRAINT moderation_reports_reason_check
    CHECK (char_length(reason) <= 1000 AND (btrim(reason) <> '' OR (category IS NOT NULL AND category <> 'outro')));


ALTER TABLE moderation_targets ADD COLUMN open_weight real NOT NULL DEFAULT 0 CHECK (open_weight >= 0);
ALTER TABLE moderation_targets ADD COLUMN auto_hide boolean NOT NULL DEFAULT true;
UPDATE moderation_targets t SET open_weight = t.open_reports;
UPDATE moderation_targets t SET auto_hide = false
WHERE EXISTS (SELECT 1 FROM moderation_actions a WHERE a.target_type = t.target_type AND a.target_id = t.target_id
              AND a.action = 'restore' AND a.actor_id IS NOT NULL);

-- +goose Down
ALTER TABLE moderation_targets DROP COLUMN auto_hide;
ALTER TABLE moderation_targets DROP COLUMN open_weight;

ALTER TABLE moderation_reports DROP CONSTRAINT moderation_reports_reason_check;
UPDATE moderation_reports SET reason = category WHERE btrim(reason) = '';
ALTER TABLE moderation_reports ADD CONSTRAINT moderation_reports_reason_check CHECK (btrim(reason) <> '' AND char_length(reason) <= 1000);
ALTER TABLE moderation_reports DROP COLUMN category;
ALTER TABLE moderation_reports DROP COLUMN weight;
