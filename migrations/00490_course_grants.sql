-- +goose Up
-- granted_by: the grant that opened an enrolment's lessons (a VetCoins
-- reward, "reward:<redemption id>"), so that refunding the reward closes
-- them again; NULL when the member opened the course themselves (their
-- trial slot or their plan), which no refund takes away.
ALTER TABLE course_enrolments ADD COLUMN granted_by text
    CHECK (granted_by IS NULL OR char_length(granted_by) BETWEEN 1 AND 200);

-- +goose Down
ALTER TABLE course_enrolments DROP COLUMN granted_by;
