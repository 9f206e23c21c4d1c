-- +goose Up
-- Courses (the cursos plugin's types, core/courses).
--
-- The reading model: one typed row per published course, module, lesson,
-- category and instructor, written from each public snapshot
-- (content_published) by a trigger in the publishing transaction, so the
-- catalogue, the course page and the progress rule read columns, never JSON.
-- An unpublished item keeps its row with published = false.
--
-- course_curriculum is the published curriculum flattened: one row per
-- published lesson of a published module listed by a course, in order. It is
-- rebuilt for every course an item change touches (a lesson republished, a
-- module reordered, a course's module list changed), so "required lessons of
-- the published course" is one indexed lookup.

CREATE TABLE course_categories (
    item_id       uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    name          text NOT NULL,
    is_active     boolean NOT NULL DEFAULT true,
    display_order integer NOT NULL DEFAULT 0,
    published     boolean NOT NULL DEFAULT true,
    updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE course_instructors (
    item_id            uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    name               text NOT NULL,
    professional_title text NOT NULL DEFAULT '',
    avatar             text NOT NULL DEFAULT '',
    bio                text NOT NULL DEFAULT '',
    published          boolean NOT NULL DEFAULT true,
    updated_at         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE course_lessons (
    item_id                uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    slug                   text NOT NULL,
    title                  text NOT NULL,
    description            text NOT NULL DEFAULT '',
    body                   text NOT NULL DEFAULT '',
    duration_seconds       integer NOT NULL DEFAULT 0 CHECK (duration_seconds >= 0),
    is_free                boolean NOT NULL DEFAULT false,
    is_optional            boolean NOT NULL DEFAULT false,
    -- the effective source: the editor's choice, or the first filled field
    video_source           text NOT NULL DEFAULT 'none' CHECK (video_source IN ('youtube', 'vimeo', 'upload', 'stream', 'none')),
    youtube_url            text NOT NULL DEFAULT '',
    vimeo_url              text NOT NULL DEFAULT '',
    video_asset            uuid,
    stream_url             text NOT NULL DEFAULT '',
    cover_image            text NOT NULL DEFAULT '',
    external_link_url      text NOT NULL DEFAULT '',
    external_link_title    text NOT NULL DEFAULT '',
    support_material_url   text NOT NULL DEFAULT '',
    support_material_title text NOT NULL DEFAULT '',
    support_material_type  text NOT NULL DEFAULT 'other',
    materials              text NOT NULL DEFAULT '',
    published              boolean NOT NULL DEFAULT true,
    updated_at             timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE course_modules (
    item_id     uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    title       text NOT NULL,
    description text NOT NULL DEFAULT '',
    lesson_ids  uuid[] NOT NULL DEFAULT '{}',
    published   boolean NOT NULL DEFAULT true,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX course_modules_lessons_idx ON course_modules USING gin (lesson_ids);

CREATE TABLE course_listings (
    item_id             uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    slug                text NOT NULL,
    title               text NOT NULL,
    -- title folded for ordering (lower case, no accents): the database
    -- collation may be C, where "Ética" would sort after "Zoonoses"
    sort_title          text NOT NULL,
    summary             text NOT NULL DEFAULT '',
    description         text NOT NULL DEFAULT '',
    thumbnail           text NOT NULL DEFAULT '',
    category_id         uuid,
    instructor_id       uuid,
    level               text NOT NULL DEFAULT '',
    price               numeric(10, 2),
    original_price      numeric(10, 2),
    rating              numeric(3, 2) NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 5),
    total_ratings       integer NOT NULL DEFAULT 0 CHECK (total_ratings >= 0),
    tags                text[] NOT NULL DEFAULT '{}',
    -- the editor's estimate ('10h'), used when a lesson has no duration
    duration_text       text NOT NULL DEFAULT '',
    -- what readers see ('10h', '1h30', '45min'; '' unknown) and its minutes
    duration            text NOT NULL DEFAULT '',
    duration_minutes    integer NOT NULL DEFAULT 0 CHECK (duration_minutes >= 0),
    certificate         boolean NOT NULL DEFAULT false,
    certificate_hours   integer CHECK (certificate_hours IS NULL OR certificate_hours > 0),
    video_intro         text NOT NULL DEFAULT '',
    what_you_will_learn text NOT NULL DEFAULT '',
    requirements        text NOT NULL DEFAULT '',
    objectives          text NOT NULL DEFAULT '',
    module_ids          uuid[] NOT NULL DEFAULT '{}',
    lessons_count       integer NOT NULL DEFAULT 0,
    required_lessons    integer NOT NULL DEFAULT 0,
    -- enrolments, kept by the course_enrolments trigger
    students            integer NOT NULL DEFAULT 0 CHECK (students >= 0),
    search              tsvector NOT NULL DEFAULT ''::tsvector,
    published           boolean NOT NULL DEFAULT true,
    published_at        timestamptz NOT NULL,
    revision            integer NOT NULL,
    updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX course_listings_popular_idx ON course_listings (students DESC, published_at DESC, item_id) WHERE published;
CREATE INDEX course_listings_newest_idx ON course_listings (published_at DESC, item_id DESC) WHERE published;
CREATE INDEX course_listings_rating_idx ON course_listings (rating DESC, total_ratings DESC, item_id) WHERE published;
CREATE INDEX course_listings_title_idx ON course_listings (sort_title, item_id) WHERE published;
CREATE INDEX course_listings_category_idx ON course_listings (category_id, students DESC) WHERE published;
CREATE INDEX course_listings_instructor_idx ON course_listings (instructor_id) WHERE published;
CREATE INDEX course_listings_level_idx ON course_listings (level) WHERE published;
CREATE INDEX course_listings_search_idx ON course_listings USING gin (search);
CREATE INDEX course_listings_modules_idx ON course_listings USING gin (module_ids);
CREATE INDEX course_listings_slug_idx ON course_listings (slug);

CREATE TABLE course_curriculum (
    course_id       uuid NOT NULL REFERENCES course_listings (item_id) ON DELETE CASCADE,
    lesson_id       uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    module_id       uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    -- 1-based order over the whole course, then within the module
    position        integer NOT NULL CHECK (position >= 1),
    module_position integer NOT NULL CHECK (module_position >= 1),
    lesson_position integer NOT NULL CHECK (lesson_position >= 1),
    required        boolean NOT NULL,
    PRIMARY KEY (course_id, lesson_id),
    CONSTRAINT course_curriculum_position UNIQUE (course_id, position)
);
CREATE INDEX course_curriculum_lesson_idx ON course_curriculum (lesson_id);

-- Enrolment in a course ('Matricular-se'). counted_in_limit: the enrolment
-- used the non-premium courses limit (trial_usage 'courses'), so it keeps
-- its lessons open after a trial ends.
CREATE TABLE course_enrolments (
    course_id        uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    enrolled_at      timestamptz NOT NULL DEFAULT now(),
    counted_in_limit boolean NOT NULL DEFAULT false,
    -- the first time the learner reached 100 %; never cleared, so lessons
    -- added later never take a finished course away from anyone
    completed_at     timestamptz,
    last_lesson_id   uuid REFERENCES content_items (id) ON DELETE SET NULL,
    last_studied_at  timestamptz,
    PRIMARY KEY (course_id, user_id)
);
CREATE INDEX course_enrolments_user_idx ON course_enrolments (user_id, last_studied_at DESC NULLS LAST);

-- A lesson a learner finished: marked, watched (at least 90 % of its seconds
-- actually played, core/engagement's rule) or read to the end.
CREATE TABLE course_lesson_completions (
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    lesson_id    uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    how          text NOT NULL CHECK (how IN ('marked', 'watched', 'read')),
    completed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, lesson_id)
);
CREATE INDEX course_lesson_completions_lesson_idx ON course_lesson_completions (lesson_id);

-- Certificates outlive their course item (a verification link must keep
-- answering), so course_id has no foreign key and the title is kept.
CREATE TABLE course_certificates (
    -- 26 Crockford base32 characters: 128 random bits
    code          text PRIMARY KEY CHECK (code ~ '^[0-9A-HJKMNP-TV-Z]{26}$'),
    course_id     uuid NOT NULL,
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    learner_name  text NOT NULL CHECK (btrim(learner_name) <> ''),
    course_title  text NOT NULL,
    hours         integer NOT NULL CHECK (hours >= 0),
    issued_at     timestamptz NOT NULL,
    revoked_at    timestamptz,
    revoked_by    uuid REFERENCES users (id) ON DELETE SET NULL,
    revoke_reason text NOT NULL DEFAULT '',
    CONSTRAINT course_certificates_once UNIQUE (course_id, user_id)
);
CREATE INDEX course_certificates_user_idx ON course_certificates (user_id, issued_at DESC);

-- +goose StatementBegin
CREATE FUNCTION course_duration_text(minutes integer) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN minutes IS NULL OR minutes <= 0 THEN ''
        WHEN minutes < 60 THEN minutes || 'min'
        WHEN minutes % 60 = 0 THEN (minutes / 60) || 'h'
        ELSE (minutes / 60) || 'h' || lpad((minutes % 60)::text, 2, '0')
    END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION course_duration_minutes(t text) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN t ~ '^[0-9]+h$' THEN substring(t FROM '^([0-9]+)h')::integer * 60
        WHEN t ~ '^[0-9]+h[0-9]{2}$' THEN substring(t FROM '^([0-9]+)h')::integer * 60 + substring(t FROM 'h([0-9]{2})$')::integer
        WHEN t ~ '^[0-9]+min$' THEN substring(t FROM '^([0-9]+)min')::integer
        ELSE 0
    END
$$;
-- +goose StatementEnd

-- course_rebuild recomputes course c's curriculum, counts, duration and
-- search vector from the published rows.
-- +goose StatementBegin
CREATE FUNCTION course_rebuild(c uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    n_all   integer;
    n_req   integer;
    secs    bigint;
    known   boolean;
    mins    integer;
BEGIN
    DELETE FROM course_curriculum WHERE course_id = c;
    INSERT INTO course_curriculum (course_id, lesson_id, module_id, position, module_position, lesson_position, required)
    SELECT c, f.lesson_id, f.module_id, row_number() OVER (ORDER BY f.mpos, f.lpos), dense_rank() OVER (ORDER BY f.mpos),
        row_number() OVER (PARTITION BY f.mpos ORDER BY f.lpos), f.required
    FROM (
        SELECT DISTINCT ON (lo.lid) lo.lid AS lesson_id, m.item_id AS module_id, mo.ord AS mpos, lo.ord AS lpos, NOT l.is_optional AS required
        FROM course_listings cl
        CROSS JOIN LATERAL unnest(cl.module_ids) WITH ORDINALITY AS mo (mid, ord)
        JOIN course_modules m ON m.item_id = mo.mid AND m.published
        CROSS JOIN LATERAL unnest(m.lesson_ids) WITH ORDINALITY AS lo (lid, ord)
        JOIN course_lessons l ON l.item_id = lo.lid AND l.published
        WHERE cl.item_id = c
        ORDER BY lo.lid, mo.ord, lo.ord
    ) f;

    SELECT count(*), count(*) FILTER (WHERE cc.required), coalesce(sum(l.duration_seconds), 0), coalesce(bool_and(l.duration_seconds > 0), false)
    INTO n_all, n_req, secs, known
    FROM course_curriculum cc JOIN course_lessons l ON l.item_id = cc.lesson_id
    WHERE cc.course_id = c;

    UPDATE course_listings cl SET
        lessons_count = n_all,
        required_lessons = n_req,
        duration_minutes = CASE
            WHEN known THEN round(secs / 60.0)::integer
            WHEN cl.duration_text <> '' THEN course_duration_minutes(cl.duration_text)
            ELSE round(secs / 60.0)::integer END,
        duration = CASE
            WHEN known THEN course_duration_text(round(secs / 60.0)::integer)
            WHEN cl.duration_text <> '' THEN cl.duration_text
            ELSE course_duration_text(round(secs / 60.0)::integer) END,
        search = setweight(to_tsvector('vetclube_pt', cl.title), 'A')
            || setweight(to_tsvector('vetclube_pt', coalesce((SELECT name FROM course_categories WHERE item_id = cl.category_id), '')
                || ' ' || coalesce((SELECT name FROM course_instructors WHERE item_id = cl.instructor_id), '')
                || ' ' || array_to_string(cl.tags, ' ')), 'B')
            || setweight(to_tsvector('vetclube_pt', cl.summary || ' ' || cl.description), 'C'),
        updated_at = now()
    WHERE cl.item_id = c;
END $$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION course_listings_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r       record;
    f       jsonb;
    typ     text;
    id      uuid;
    src     text;
    courses uuid[];
    c       uuid;
BEGIN
    IF TG_OP = 'DELETE' THEN
        typ := OLD.type;
        id := OLD.item_id;
    ELSE
        typ := NEW.type;
        id := NEW.item_id;
    END IF;
    IF typ NOT IN ('cursos', 'cursos-modulos', 'cursos-aulas', 'cursos-categorias', 'cursos-instrutores') THEN
        RETURN NULL;
    END IF;

    IF TG_OP = 'DELETE' THEN
        CASE typ
            WHEN 'cursos' THEN UPDATE course_listings SET published = false, updated_at = now() WHERE item_id = id;
            WHEN 'cursos-modulos' THEN UPDATE course_modules SET published = false, updated_at = now() WHERE item_id = id;
            WHEN 'cursos-aulas' THEN UPDATE course_lessons SET published = false, updated_at = now() WHERE item_id = id;
            WHEN 'cursos-categorias' THEN UPDATE course_categories SET published = false, updated_at = now() WHERE item_id = id;
            ELSE UPDATE course_instructors SET published = false, updated_at = now() WHERE item_id = id;
        END CASE;
    ELSE
        f := NEW.fields;
        CASE typ
        WHEN 'cursos' THEN
            INSERT INTO course_listings AS l (item_id, slug, title, sort_title, summary, description, thumbnail, category_id,
                    instructor_id, level, price, original_price, rating, total_ratings, tags, duration_text, certificate,
                    certificate_hours, video_intro, what_you_will_learn, requirements, objectives, module_ids, published,
                    published_at, revision, updated_at)
                VALUES (id, NEW.slug, NEW.title, lower(unaccent(NEW.title)), NEW.summary, coalesce(f->>'description', ''),
                    coalesce(f->>'thumbnail', ''), nullif(f->>'category', '')::uuid, nullif(f->>'instructor', '')::uuid,
                    coalesce(f->>'level', ''), (f->>'price')::numeric, (f->>'original_price')::numeric,
                    coalesce((f->>'rating')::numeric, 0), coalesce((f->>'total_ratings')::numeric::integer, 0),
                    coalesce(ARRAY(SELECT jsonb_array_elements_text(f->'tags')), '{}'), coalesce(f->>'duration', ''),
                    NOT coalesce((f->>'no_certificate')::boolean, false), (f->>'certificate_hours')::numeric::integer,
                    coalesce(f->>'video_intro', ''), coalesce(f->>'what_you_will_learn', ''), coalesce(f->>'requirements', ''),
                    coalesce(f->>'objectives', ''), coalesce(ARRAY(SELECT jsonb_array_elements_text(f->'modules'))::uuid[], '{}'),
                    true, NEW.published_at, NEW.revision, now())
                ON CONFLICT (item_id) DO UPDATE SET slug = EXCLUDED.slug, title = EXCLUDED.title, sort_title = EXCLUDED.sort_title,
                    summary = EXCLUDED.summary, description = EXCLUDED.description, thumbnail = EXCLUDED.thumbnail,
                    category_id = EXCLUDED.category_id, instructor_id = EXCLUDED.instructor_id, level = EXCLUDED.level,
                    price = EXCLUDED.price, original_price = EXCLUDED.original_price, rating = EXCLUDED.rating,
                    total_ratings = EXCLUDED.total_ratings, tags = EXCLUDED.tags, duration_text = EXCLUDED.duration_text,
                    certificate = EXCLUDED.certificate, certificate_hours = EXCLUDED.certificate_hours,
                    video_intro = EXCLUDED.video_intro, what_you_will_learn = EXCLUDED.what_you_will_learn,
                    requirements = EXCLUDED.requirements, objectives = EXCLUDED.objectives, module_ids = EXCLUDED.module_ids,
                    published = true, published_at = EXCLUDED.published_at, revision = EXCLUDED.revision, updated_at = now();
        WHEN 'cursos-modulos' THEN
            INSERT INTO course_modules AS m (item_id, title, description, lesson_ids, published, updated_at)
                VALUES (id, NEW.title, coalesce(f->>'description', ''),
                    coalesce(ARRAY(SELECT jsonb_array_elements_text(f->'lessons'))::uuid[], '{}'), true, now())
                ON CONFLICT (item_id) DO UPDATE SET title = EXCLUDED.title, description = EXCLUDED.description,
                    lesson_ids = EXCLUDED.lesson_ids, published = true, updated_at = now();
        WHEN 'cursos-aulas' THEN
            src := nullif(f->>'video_source', '');
            IF src IS NULL THEN
                src := CASE
                    WHEN coalesce(f->>'youtube_url', '') <> '' THEN 'youtube'
                    WHEN coalesce(f->>'vimeo_url', '') <> '' THEN 'vimeo'
                    WHEN coalesce(f->>'video_asset', '') <> '' THEN 'upload'
                    WHEN coalesce(f->>'stream_url', '') <> '' THEN 'stream'
                    ELSE 'none' END;
            END IF;
            INSERT INTO course_lessons AS l (item_id, slug, title, description, body, duration_seconds, is_free, is_optional,
                    video_source, youtube_url, vimeo_url, video_asset, stream_url, cover_image, external_link_url,
                    external_link_title, support_material_url, support_material_title, support_material_type, materials,
                    published, updated_at)
                VALUES (id, NEW.slug, NEW.title, coalesce(f->>'description', ''), coalesce(f->>'body', ''),
                    coalesce((f->>'duration_seconds')::numeric::integer, 0), coalesce((f->>'is_free')::boolean, false),
                    coalesce((f->>'is_optional')::boolean, false), src, coalesce(f->>'youtube_url', ''),
                    coalesce(f->>'vimeo_url', ''), nullif(f->>'video_asset', '')::uuid, coalesce(f->>'stream_url', ''),
                    coalesce(f->>'cover_image', ''), coalesce(f->>'external_link_url', ''), coalesce(f->>'external_link_title', ''),
                    CASE WHEN coalesce(f->>'support_material_file', '') <> '' THEN '/uploads/' || (f->>'support_material_file')
                         ELSE coalesce(f->>'support_material_url', '') END,
                    coalesce(f->>'support_material_title', ''), coalesce(nullif(f->>'support_material_type', ''), 'other'),
                    coalesce(f->>'materials', ''), true, now())
                ON CONFLICT (item_id) DO UPDATE SET slug = EXCLUDED.slug, title = EXCLUDED.title,
                    description = EXCLUDED.description, body = EXCLUDED.body, duration_seconds = EXCLUDED.duration_seconds,
                    is_free = EXCLUDED.is_free, is_optional = EXCLUDED.is_optional, video_source = EXCLUDED.video_source,
                    youtube_url = EXCLUDED.youtube_url, vimeo_url = EXCLUDED.vimeo_url, video_asset = EXCLUDED.video_asset,
                    stream_url = EXCLUDED.stream_url, cover_image = EXCLUDED.cover_image,
                    external_link_url = EXCLUDED.external_link_url, external_link_title = EXCLUDED.external_link_title,
                    support_material_url = EXCLUDED.support_material_url, support_material_title = EXCLUDED.support_material_title,
                    support_material_type = EXCLUDED.support_material_type, materials = EXCLUDED.materials,
                    published = true, updated_at = now();
        WHEN 'cursos-categorias' THEN
            INSERT INTO course_categories AS k (item_id, name, is_active, display_order, published, updated_at)
                VALUES (id, NEW.title, coalesce((f->>'is_active')::boolean, true),
                    coalesce((f->>'display_order')::numeric::integer, 0), true, now())
                ON CONFLICT (item_id) DO UPDATE SET name = EXCLUDED.name, is_active = EXCLUDED.is_active,
                    display_order = EXCLUDED.display_order, published = true, updated_at = now();
        ELSE
            INSERT INTO course_instructors AS i (item_id, name, professional_title, avatar, bio, published, updated_at)
                VALUES (id, NEW.title, coalesce(f->>'professional_title', ''), coalesce(f->>'avatar', ''),
                    coalesce(f->>'bio', ''), true, now())
                ON CONFLICT (item_id) DO UPDATE SET name = EXCLUDED.name, professional_title = EXCLUDED.professional_title,
                    avatar = EXCLUDED.avatar, bio = EXCLUDED.bio, published = true, updated_at = now();
        END CASE;
    END IF;

    -- every course the change touches
    courses := CASE typ
        WHEN 'cursos' THEN ARRAY[id]
        WHEN 'cursos-modulos' THEN ARRAY(SELECT item_id FROM course_listings WHERE module_ids @> ARRAY[id])
        WHEN 'cursos-aulas' THEN ARRAY(SELECT item_id FROM course_listings WHERE module_ids &&
            ARRAY(SELECT item_id FROM course_modules WHERE lesson_ids @> ARRAY[id]))
        WHEN 'cursos-categorias' THEN ARRAY(SELECT item_id FROM course_listings WHERE category_id = id)
        ELSE ARRAY(SELECT item_id FROM course_listings WHERE instructor_id = id)
    END;
    FOREACH c IN ARRAY courses LOOP
        PERFORM course_rebuild(c);
    END LOOP;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER content_published_course_listings AFTER INSERT OR UPDATE OR DELETE ON content_published
    FOR EACH ROW EXECUTE FUNCTION course_listings_sync();

-- Students per course follow the enrolment rows in their own transaction.
-- +goose StatementBegin
CREATE FUNCTION course_enrolments_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE course_listings SET students = students + 1 WHERE item_id = NEW.course_id;
    ELSE
        UPDATE course_listings SET students = students - 1 WHERE item_id = OLD.course_id;
    END IF;
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER course_enrolments_students AFTER INSERT OR DELETE ON course_enrolments
    FOR EACH ROW EXECUTE FUNCTION course_enrolments_count();

-- +goose Down
DROP TRIGGER course_enrolments_students ON course_enrolments;
DROP FUNCTION course_enrolments_count();
DROP TRIGGER content_published_course_listings ON content_published;
DROP FUNCTION course_listings_sync();
DROP FUNCTION course_rebuild(uuid);
DROP FUNCTION course_duration_minutes(text);
DROP FUNCTION course_duration_text(integer);
DROP TABLE course_certificates;
DROP TABLE course_lesson_completions;
DROP TABLE course_enrolments;
DROP TABLE course_curriculum;
DROP TABLE course_listings;
DROP TABLE course_modules;
DROP TABLE course_lessons;
DROP TABLE course_instructors;
DROP TABLE course_categories;
