-- +goose Up
-- Oportunidades: jobs for vets (the vagas content type, core/jobs).
--
-- job_listings is the jobs' reading model: one row per job ever published,
-- typed from its public snapshot (content_published) by a trigger in the
-- publishing transaction, so search, filters and sorting read columns,
-- never JSON. An unpublished job keeps its row (published false) so its
-- applications still name it.
CREATE TABLE job_listings (
    item_id        uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    slug           text NOT NULL,
    title          text NOT NULL,
    summary        text NOT NULL DEFAULT '',
    organization   text NOT NULL DEFAULT '',
    city           text NOT NULL DEFAULT '',
    state          text NOT NULL DEFAULT '',
    workplace      text NOT NULL DEFAULT '',
    contract       text NOT NULL DEFAULT '',
    area           text NOT NULL DEFAULT '',
    specialty      text NOT NULL DEFAULT '',
    -- R$ per month; both null: 'a combinar'
    salary_min     integer,
    salary_max     integer,
    requirements   text NOT NULL DEFAULT '',
    crmv_required  boolean NOT NULL DEFAULT false,
    apply_kind     text NOT NULL DEFAULT 'vetclube',
    apply_value    text NOT NULL DEFAULT '',
    -- the last day applications are taken and the moment it ends (its
    -- midnight in Brasília time), when the job goes offline
    closes_on      date NOT NULL,
    closes_at      timestamptz NOT NULL,
    featured       boolean NOT NULL DEFAULT false,
    published      boolean NOT NULL DEFAULT true,
    -- first publication ("mais recentes"); kept across republishing
    first_published_at timestamptz NOT NULL DEFAULT now(),
    unpublished_at timestamptz,
    revision       integer NOT NULL,
    updated_at     timestamptz NOT NULL DEFAULT now(),
    search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('vetclube_pt'::regconfig, title), 'A')
        || setweight(to_tsvector('vetclube_pt'::regconfig, organization || ' ' || specialty || ' ' || city), 'B')
        || setweight(to_tsvector('vetclube_pt'::regconfig, summary || ' ' || requirements), 'C')) STORED
);
CREATE INDEX job_listings_open_idx ON job_listings (first_published_at DESC) WHERE published;
CREATE INDEX job_listings_closing_idx ON job_listings (closes_at) WHERE published;
CREATE INDEX job_listings_slug_idx ON job_listings (slug);
CREATE INDEX job_listings_search_idx ON job_listings USING gin (search);
CREATE INDEX job_listings_title_trgm_idx ON job_listings USING gin (vetclube_fold(title) gin_trgm_ops);
CREATE INDEX job_listings_city_idx ON job_listings (vetclube_fold(city));

-- Jobs whose closing moment and alerts core/jobs must still handle: written
-- by the same trigger, so a change is never lost between the commit and
-- the timer; core/jobs drains it.
CREATE TABLE job_sync_queue (
    item_id   uuid PRIMARY KEY REFERENCES content_items (id) ON DELETE CASCADE,
    queued_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- +goose StatementBegin
CREATE FUNCTION job_listings_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    f  jsonb;
    d  date;
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF OLD.type = 'vagas' THEN
            UPDATE job_listings SET published = false, unpublished_at = now(), updated_at = now()
                WHERE item_id = OLD.item_id;
        END IF;
        RETURN NULL;
    END IF;
    IF NEW.type <> 'vagas' THEN
        RETURN NULL;
    END IF;
    f := NEW.fields;
    d := (f->>'closes_at')::date;
    INSERT INTO job_listings AS l (item_id, slug, title, summary, organization, city, state, workplace, contract, area,
            specialty, salary_min, salary_max, requirements, crmv_required, apply_kind, apply_value, closes_on, closes_at,
            featured, published, unpublished_at, revision, updated_at)
        VALUES (NEW.item_id, NEW.slug, NEW.title, NEW.summary, coalesce(f->>'organization', ''), coalesce(f->>'city', ''),
            coalesce(f->>'state', ''), coalesce(f->>'workplace', ''), coalesce(f->>'contract', ''), coalesce(f->>'area', ''),
            coalesce(f->>'specialty', ''), (f->>'salary_min')::numeric::integer, (f->>'salary_max')::numeric::integer,
            coalesce(f->>'requirements', ''), coalesce((f->>'crmv_required')::boolean, false),
            coalesce(nullif(f->>'apply_kind', ''), 'vetclube'), coalesce(f->>'apply_value', ''), d,
            (d + 1)::timestamp AT TIME ZONE 'America/Sao_Paulo', coalesce((f->>'featured')::boolean, false),
            true, NULL, NEW.revision, now())
        ON CONFLICT (item_id) DO UPDATE SET slug = EXCLUDED.slug, title = EXCLUDED.title, summary = EXCLUDED.summary,
            organization = EXCLUDED.organization, city = EXCLUDED.city, state = EXCLUDED.state,
            workplace = EXCLUDED.workplace, contract = EXCLUDED.contract, area = EXCLUDED.area,
            specialty = EXCLUDED.specialty, salary_min = EXCLUDED.salary_min, salary_max = EXCLUDED.salary_max,
            requirements = EXCLUDED.requirements, crmv_required = EXCLUDED.crmv_required,
            apply_kind = EXCLUDED.apply_kind, apply_value = EXCLUDED.apply_value, closes_on = EXCLUDED.closes_on,
            closes_at = EXCLUDED.closes_at, featured = EXCLUDED.featured, published = true, unpublished_at = NULL,
            revision = EXCLUDED.revision, updated_at = now();
    INSERT INTO job_sync_queue (item_id) VALUES (NEW.item_id)
        ON CONFLICT (item_id) DO UPDATE SET queued_at = clock_timestamp();
    RETURN NULL;
END $$;
-- +goose StatementEnd
CREATE TRIGGER content_published_job_listings AFTER INSERT OR UPDATE OR DELETE ON content_published
    FOR EACH ROW EXECUTE FUNCTION job_listings_sync();

-- Jobs a member saved.
CREATE TABLE saved_jobs (
    user_id  uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    item_id  uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    saved_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, item_id)
);
CREATE INDEX saved_jobs_item_idx ON saved_jobs (item_id);

-- Applications made in VetClube: one per member and job. The CV, when
-- sent, is a PDF in the private store (cv_key), read only by the applicant
-- and the people who manage the job.
CREATE TABLE job_applications (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    item_id     uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status      text NOT NULL DEFAULT 'recebida'
        CHECK (status IN ('recebida', 'em_analise', 'entrevista', 'recusada', 'contratada')),
    -- the recruiter's note with the last status change (shown to the applicant)
    note        text NOT NULL DEFAULT '' CHECK (char_length(note) <= 2000),
    message     text NOT NULL DEFAULT '' CHECK (char_length(message) <= 3000),
    cv_key      text,
    cv_name     text,
    cv_size     integer,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (item_id, user_id)
);
CREATE INDEX job_applications_user_idx ON job_applications (user_id, created_at DESC);

-- Every status change of an application, in order (who, when, the note).
CREATE TABLE job_application_events (
    id             bigserial PRIMARY KEY,
    application_id uuid NOT NULL REFERENCES job_applications (id) ON DELETE CASCADE,
    status         text NOT NULL,
    note           text NOT NULL DEFAULT '',
    actor_id       uuid REFERENCES users (id) ON DELETE SET NULL,
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_application_events_app_idx ON job_application_events (application_id, id);

-- Recruiters of a job: besides the editorial staff who manage it, the
-- accounts with the recrutador role a job's staff assigned to it; they see
-- that job's applications and nothing else.
CREATE TABLE job_recruiters (
    item_id  uuid NOT NULL REFERENCES content_items (id) ON DELETE CASCADE,
    user_id  uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    added_by uuid REFERENCES users (id) ON DELETE SET NULL,
    added_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (item_id, user_id)
);
CREATE INDEX job_recruiters_user_idx ON job_recruiters (user_id, item_id);

-- Saved searches: the member's filters, and whether a newly published job
-- that matches them is announced (alerts).
CREATE TABLE job_saved_searches (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    q            text NOT NULL DEFAULT '' CHECK (char_length(q) <= 200),
    state        text NOT NULL DEFAULT '',
    city         text NOT NULL DEFAULT '' CHECK (char_length(city) <= 120),
    area         text NOT NULL DEFAULT '',
    contract     text NOT NULL DEFAULT '',
    workplace    text NOT NULL DEFAULT '',
    salary_given boolean NOT NULL DEFAULT false,
    alerts       boolean NOT NULL DEFAULT true,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_saved_searches_user_idx ON job_saved_searches (user_id, created_at);
CREATE INDEX job_saved_searches_alerts_idx ON job_saved_searches (state) WHERE alerts;

-- The recruiter role.
ALTER TABLE user_roles DROP CONSTRAINT user_roles_role_check;
ALTER TABLE user_roles ADD CONSTRAINT user_roles_role_check CHECK (role IN ('super_admin', 'editor', 'revisor', 'moderador', 'recrutador'));

-- +goose Down
DELETE FROM user_roles WHERE role = 'recrutador';
ALTER TABLE user_roles DROP CONSTRAINT user_roles_role_check;
ALTER TABLE user_roles ADD CONSTRAINT user_roles_role_check CHECK (role IN ('super_admin', 'editor', 'revisor', 'moderador'));
DROP TABLE job_saved_searches;
DROP TABLE job_recruiters;
DROP TABLE job_application_events;
DROP TABLE job_applications;
DROP TABLE saved_jobs;
DROP TRIGGER content_published_job_listings ON content_published;
DROP FUNCTION job_listings_sync();
DROP TABLE job_sync_queue;
DROP TABLE job_listings;
