-- +goose Up
-- Events (the eventos content type, core/eventos).
--
-- event_listings is the events' reading model: one row per event ever
-- published, typed from its public snapshot (content_published) by a trigger
-- in the publishing transaction, so lists, the next-event card, the .ics file
-- and the reminders read dates, times and capacity as columns, never out of
-- JSON. An unpublished event keeps its row (published false): one taken
-- offline by the automatic unpublish 24 h after its end (kept_as_past)
-- stays listed among past events.
CREATE TABLE event_listings (
    item_id          uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    slug             text NOT NULL,
    title            text NOT NULL,
    summary          text NOT NULL DEFAULT '',
    description      text NOT NULL DEFAULT '',
    event_type       text NOT NULL DEFAULT '',
    icon             text NOT NULL DEFAULT '📅',
    -- the local date and time in time_zone, as the editor typed them
    event_date       date NOT NULL,
    event_time       time NOT NULL,
    end_time         time,
    time_zone        text NOT NULL DEFAULT 'America/Sao_Paulo',
    starts_at        timestamptz NOT NULL,
    ends_at          timestamptz NOT NULL CHECK (ends_at > starts_at),
    online           boolean NOT NULL DEFAULT false,
    location         text NOT NULL DEFAULT '',
    meeting_url      text NOT NULL DEFAULT '',
    instructor       text NOT NULL DEFAULT '',
    price_text       text NOT NULL DEFAULT '',
    is_active        boolean NOT NULL DEFAULT true,
    max_participants integer CHECK (max_participants IS NULL OR max_participants >= 1),
    published        boolean NOT NULL DEFAULT true,
    unpublished_at   timestamptz,
    -- taken offline by the automatic unpublish after its end: still listed
    -- among past events
    kept_as_past     boolean NOT NULL DEFAULT false,
    -- when the event was last made inactive (cancelled); null while active
    cancelled_at     timestamptz,
    revision         integer NOT NULL,
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX event_listings_next_idx ON event_listings (event_date, event_time) WHERE published AND is_active;
CREATE INDEX event_listings_slug_idx ON event_listings (slug);

-- Items whose schedule the core must pass on to Temporal (reminders,
-- cancellation, the automatic unpublish): written by the same trigger, so a
-- change is never lost between the commit and the signal; core/eventos
-- drains it (polling every second).
CREATE TABLE event_sync_queue (
    item_id   uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    queued_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- +goose StatementBegin
CREATE FUNCTION event_listings_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    f   jsonb;
    d   date;
    t   time;
    e   time;
    tz  text;
    s   timestamptz;
    en  timestamptz;
    act boolean;
    cap integer;
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF OLD.type = 'eventos' THEN
            UPDATE event_listings SET published = false, unpublished_at = now(), updated_at = now()
                WHERE item_id = OLD.item_id;
            INSERT INTO event_sync_queue (item_id) VALUES (OLD.item_id)
                ON CONFLICT (item_id) DO UPDATE SET queued_at = clock_timestamp();
        END IF;
        RETURN NULL;
    END IF;
    IF NEW.type <> 'eventos' THEN
        RETURN NULL;
    END IF;
    f := NEW.fields;
    d := (f->>'event_date')::date;
    t := (f->>'event_time')::time;
    e := nullif(f->>'end_time', '')::time;
    tz := coalesce(nullif(f->>'time_zone', ''), 'America/Sao_Paulo');
    s := (d + t) AT TIME ZONE tz;
    IF e IS NULL THEN
        en := s + interval '2 hours';
    ELSIF e > t THEN
        en := (d + e) AT TIME ZONE tz;
    ELSE
        -- an end time before the start is on the next day
        en := (d + 1 + e) AT TIME ZONE tz;
    END IF;
    act := coalesce((f->>'is_active')::boolean, true);
    cap := (f->>'max_participants')::numeric::integer;
    INSERT INTO event_listings AS l (item_id, slug, title, summary, description, event_type, icon, event_date, event_time,
            end_time, time_zone, starts_at, ends_at, online, location, meeting_url, instructor, price_text, is_active,
            max_participants, published, unpublished_at, cancelled_at, revision, updated_at)
        VALUES (NEW.item_id, NEW.slug, NEW.title, NEW.summary, coalesce(f->>'description', ''), coalesce(f->>'event_type', ''),
            coalesce(nullif(f->>'icon', ''), '📅'), d, t, e, tz, s, en, coalesce((f->>'online')::boolean, false),
            coalesce(f->>'location', ''), coalesce(f->>'meeting_url', ''), coalesce(f->>'instructor', ''),
            coalesce(f->>'price_text', ''), act, cap, true, NULL, CASE WHEN act THEN NULL ELSE now() END, NEW.revision, now())
        ON CONFLICT (item_id) DO UPDATE SET slug = EXCLUDED.slug, title = EXCLUDED.title, summary = EXCLUDED.summary,
            description = EXCLUDED.description, event_type = EXCLUDED.event_type, icon = EXCLUDED.icon,
            event_date = EXCLUDED.event_date, event_time = EXCLUDED.event_time, end_time = EXCLUDED.end_time,
            time_zone = EXCLUDED.time_zone, starts_at = EXCLUDED.starts_at, ends_at = EXCLUDED.ends_at,
            online = EXCLUDED.online, location = EXCLUDED.location, meeting_url = EXCLUDED.meeting_url,
            instructor = EXCLUDED.instructor, price_text = EXCLUDED.price_text, is_active = EXCLUDED.is_active,
            max_participants = EXCLUDED.max_participants, published = true, unpublished_at = NULL, kept_as_past = false,
            -- the moment of cancelling is kept while the event stays inactive
            cancelled_at = CASE WHEN EXCLUDED.is_active THEN NULL ELSE coalesce(l.cancelled_at, now()) END,
            revision = EXCLUDED.revision, updated_at = now();
    INSERT INTO event_sync_queue (item_id) VALUES (NEW.item_id)
        ON CONFLICT (item_id) DO UPDATE SET queued_at = clock_timestamp();
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER content_published_event_listings AFTER INSERT OR UPDATE OR DELETE ON content_published
    FOR EACH ROW EXECUTE FUNCTION event_listings_sync();

-- +goose Down
DROP TRIGGER content_published_event_listings ON content_published;
DROP FUNCTION event_listings_sync();
DROP TABLE event_sync_queue;
DROP TABLE event_listings;
