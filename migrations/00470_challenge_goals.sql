-- +goose Up
-- Challenges measured by VetClube rather than scored from answers: a study
-- streak (kind "estudos": complete lessons_goal course lessons between the
-- start and the end) and a community challenge (kind "comunidade": have
-- answers_goal comments accepted as answers in that period). goal is the
-- kind's goal; 0 for the kinds with questions.
ALTER TABLE challenge_listings ADD COLUMN goal integer NOT NULL DEFAULT 0
    CHECK (goal BETWEEN 0 AND 1000);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION challenge_listings_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    f jsonb;
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF OLD.type = 'desafios' THEN
            UPDATE challenge_listings SET published = false, updated_at = now() WHERE item_id = OLD.item_id;
            INSERT INTO challenge_sync_queue (item_id) VALUES (OLD.item_id)
                ON CONFLICT (item_id) DO UPDATE SET queued_at = clock_timestamp();
        END IF;
        RETURN NULL;
    END IF;
    IF NEW.type <> 'desafios' THEN
        RETURN NULL;
    END IF;
    f := NEW.fields;
    INSERT INTO challenge_listings AS l (item_id, slug, title, summary, description, kind, starts_at, ends_at, points,
            difficulty, specialty, premium_only, goal, case_fields, published, revision, updated_at)
        VALUES (NEW.item_id, NEW.slug, NEW.title, NEW.summary, coalesce(f->>'description', ''), coalesce(f->>'kind', 'quiz'),
            (f->>'starts_at')::timestamptz, (f->>'ends_at')::timestamptz, coalesce((f->>'points')::numeric::integer, 0),
            coalesce(f->>'difficulty', ''), coalesce(f->>'specialty', ''), coalesce((f->>'premium_only')::boolean, false),
            CASE WHEN f->>'kind' = 'estudos' THEN coalesce((f->>'lessons_goal')::numeric::integer, 0)
                WHEN f->>'kind' = 'comunidade' THEN coalesce((f->>'answers_goal')::numeric::integer, 0) ELSE 0 END,
            jsonb_strip_nulls(jsonb_build_object('history', f->'history', 'exam_findings', f->'exam_findings',
                'image_1', f->'image_1', 'image_2', f->'image_2', 'image_3', f->'image_3', 'explanation', f->'explanation',
                'q1_text', f->'q1_text', 'q1_options', f->'q1_options', 'q1_correct', f->'q1_correct', 'q1_explanation', f->'q1_explanation',
                'q2_text', f->'q2_text', 'q2_options', f->'q2_options', 'q2_correct', f->'q2_correct', 'q2_explanation', f->'q2_explanation',
                'q3_text', f->'q3_text', 'q3_options', f->'q3_options', 'q3_correct', f->'q3_correct', 'q3_explanation', f->'q3_explanation',
                'q4_text', f->'q4_text', 'q4_options', f->'q4_options', 'q4_correct', f->'q4_correct', 'q4_explanation', f->'q4_explanation',
                'q5_text', f->'q5_text', 'q5_options', f->'q5_options', 'q5_correct', f->'q5_correct', 'q5_explanation', f->'q5_explanation')),
            true, NEW.revision, now())
        ON CONFLICT (item_id) DO UPDATE SET slug = EXCLUDED.slug, title = EXCLUDED.title, summary = EXCLUDED.summary,
            description = EXCLUDED.description, kind = EXCLUDED.kind, starts_at = EXCLUDED.starts_at, ends_at = EXCLUDED.ends_at,
            points = EXCLUDED.points, difficulty = EXCLUDED.difficulty, specialty = EXCLUDED.specialty,
            premium_only = EXCLUDED.premium_only, goal = EXCLUDED.goal, case_fields = EXCLUDED.case_fields, published = true,
            -- A challenge moved to end later is open again.
            closed_at = CASE WHEN EXCLUDED.ends_at > now() THEN NULL ELSE l.closed_at END,
            revision = EXCLUDED.revision, updated_at = now();
    INSERT INTO challenge_sync_queue (item_id) VALUES (NEW.item_id)
        ON CONFLICT (item_id) DO UPDATE SET queued_at = clock_timestamp();
    RETURN NULL;
END $$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION challenge_listings_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    f jsonb;
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF OLD.type = 'desafios' THEN
            UPDATE challenge_listings SET published = false, updated_at = now() WHERE item_id = OLD.item_id;
            INSERT INTO challenge_sync_queue (item_id) VALUES (OLD.item_id)
                ON CONFLICT (item_id) DO UPDATE SET queued_at = clock_timestamp();
        END IF;
        RETURN NULL;
    END IF;
    IF NEW.type <> 'desafios' THEN
        RETURN NULL;
    END IF;
    f := NEW.fields;
    INSERT INTO challenge_listings AS l (item_id, slug, title, summary, description, kind, starts_at, ends_at, points,
            difficulty, specialty, premium_only, case_fields, published, revision, updated_at)
        VALUES (NEW.item_id, NEW.slug, NEW.title, NEW.summary, coalesce(f->>'description', ''), coalesce(f->>'kind', 'quiz'),
            (f->>'starts_at')::timestamptz, (f->>'ends_at')::timestamptz, coalesce((f->>'points')::numeric::integer, 0),
            coalesce(f->>'difficulty', ''), coalesce(f->>'specialty', ''), coalesce((f->>'premium_only')::boolean, false),
            jsonb_strip_nulls(jsonb_build_object('history', f->'history', 'exam_findings', f->'exam_findings',
                'image_1', f->'image_1', 'image_2', f->'image_2', 'image_3', f->'image_3', 'explanation', f->'explanation',
                'q1_text', f->'q1_text', 'q1_options', f->'q1_options', 'q1_correct', f->'q1_correct', 'q1_explanation', f->'q1_explanation',
                'q2_text', f->'q2_text', 'q2_options', f->'q2_options', 'q2_correct', f->'q2_correct', 'q2_explanation', f->'q2_explanation',
                'q3_text', f->'q3_text', 'q3_options', f->'q3_options', 'q3_correct', f->'q3_correct', 'q3_explanation', f->'q3_explanation',
                'q4_text', f->'q4_text', 'q4_options', f->'q4_options', 'q4_correct', f->'q4_correct', 'q4_explanation', f->'q4_explanation',
                'q5_text', f->'q5_text', 'q5_options', f->'q5_options', 'q5_correct', f->'q5_correct', 'q5_explanation', f->'q5_explanation')),
            true, NEW.revision, now())
        ON CONFLICT (item_id) DO UPDATE SET slug = EXCLUDED.slug, title = EXCLUDED.title, summary = EXCLUDED.summary,
            description = EXCLUDED.description, kind = EXCLUDED.kind, starts_at = EXCLUDED.starts_at, ends_at = EXCLUDED.ends_at,
            points = EXCLUDED.points, difficulty = EXCLUDED.difficulty, specialty = EXCLUDED.specialty,
            premium_only = EXCLUDED.premium_only, case_fields = EXCLUDED.case_fields, published = true,
            -- A challenge moved to end later is open again.
            closed_at = CASE WHEN EXCLUDED.ends_at > now() THEN NULL ELSE l.closed_at END,
            revision = EXCLUDED.revision, updated_at = now();
    INSERT INTO challenge_sync_queue (item_id) VALUES (NEW.item_id)
        ON CONFLICT (item_id) DO UPDATE SET queued_at = clock_timestamp();
    RETURN NULL;
END $$;
-- +goose StatementEnd

ALTER TABLE challenge_listings DROP COLUMN goal;
