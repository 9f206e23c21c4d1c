-- +goose Up
-- Challenges (the desafios content type, core/challenges).
--
-- challenge_listings is the challenges' reading model: one row per
-- challenge ever published, typed from its public snapshot
-- (content_published) by a trigger in the publishing transaction. The case
-- and the questions stay in the snapshot's JSON (case_fields): they are read
-- only on a challenge's own page and when scoring.
CREATE TABLE challenge_listings (
    item_id       uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    slug          text NOT NULL,
    title         text NOT NULL,
    summary       text NOT NULL DEFAULT '',
    description   text NOT NULL DEFAULT '',
    kind          text NOT NULL,
    starts_at     timestamptz NOT NULL,
    ends_at       timestamptz NOT NULL CHECK (ends_at > starts_at),
    points        integer NOT NULL CHECK (points >= 0),
    difficulty    text NOT NULL DEFAULT '',
    specialty     text NOT NULL DEFAULT '',
    premium_only  boolean NOT NULL DEFAULT false,
    case_fields   jsonb NOT NULL DEFAULT '{}',
    published     boolean NOT NULL DEFAULT true,
    -- closed_at: when the end timer closed the challenge (late drafts
    -- closed without points); NULL while open.
    closed_at     timestamptz,
    -- announced_at: when members of its specialty were told of it.
    announced_at  timestamptz,
    revision      integer NOT NULL,
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX challenge_listings_period_idx ON challenge_listings (starts_at, ends_at) WHERE published;
CREATE INDEX challenge_listings_slug_idx ON challenge_listings (slug);

-- challenge_sync_queue: challenges whose period changed, waiting to be
-- handed to their durable timers (core/challenges SyncPending).
CREATE TABLE challenge_sync_queue (
    item_id   uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    queued_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- +goose StatementBegin
CREATE FUNCTION challenge_listings_sync() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE TRIGGER content_published_challenge_listings AFTER INSERT OR UPDATE OR DELETE ON content_published
    FOR EACH ROW EXECUTE FUNCTION challenge_listings_sync();

-- challenge_participations: one member's take on one challenge. Answers are
-- saved as the member goes (status in_progress), submitted once
-- (submitted: scored on the server, points credited with the ledger key
-- challenge:<challenge>:<member>), or closed by the end timer while still a
-- draft (closed: no points). counted_in_limit: the start counted in the
-- trial limit "challenges".
CREATE TABLE challenge_participations (
    challenge_id     uuid NOT NULL REFERENCES challenge_listings (item_id) ON DELETE CASCADE,
    user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    answers          jsonb NOT NULL DEFAULT '{}',
    status           text NOT NULL DEFAULT 'in_progress' CHECK (status IN ('in_progress', 'submitted', 'closed')),
    started_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    submitted_at     timestamptz,
    correct          integer NOT NULL DEFAULT 0,
    total            integer NOT NULL DEFAULT 0,
    points_awarded   integer NOT NULL DEFAULT 0,
    counted_in_limit boolean NOT NULL DEFAULT false,
    reminded_at      timestamptz,
    PRIMARY KEY (challenge_id, user_id)
);
CREATE INDEX challenge_participations_user_idx ON challenge_participations (user_id, submitted_at);
CREATE INDEX challenge_participations_week_idx ON challenge_participations (submitted_at) WHERE status = 'submitted';

-- challenge_badges: badges a member earned by completing challenges in a
-- row (weeks in a row with a submitted challenge); kept once earned.
CREATE TABLE challenge_badges (
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    badge      text NOT NULL,
    awarded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, badge)
);

-- challenge_week_rankings: the ranking snapshot taken when a week ends
-- (week_start is the Monday, São Paulo time), and the notice it sent.
CREATE TABLE challenge_week_rankings (
    week_start date NOT NULL,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    points     integer NOT NULL,
    position   integer NOT NULL,
    PRIMARY KEY (week_start, user_id)
);

-- +goose Down
DROP TABLE challenge_week_rankings;
DROP TABLE challenge_badges;
DROP TABLE challenge_participations;
DROP TRIGGER content_published_challenge_listings ON content_published;
DROP FUNCTION challenge_listings_sync();
DROP TABLE challenge_sync_queue;
DROP TABLE challenge_listings;
