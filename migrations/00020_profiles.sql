-- +goose Up
-- A member's public and private profile, one per account. Rows are
-- created on first access from the sign-up metadata (core/profiles), so an
-- account may briefly have none. Email lives on users only.
CREATE TABLE profiles (
    user_id             uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    first_name          text NOT NULL DEFAULT 'Usuário',
    last_name           text NOT NULL DEFAULT '',
    avatar_url          text NOT NULL DEFAULT '',
    verified            boolean NOT NULL DEFAULT false,
    specialties         text[] NOT NULL DEFAULT '{}',
    connections_count   integer NOT NULL DEFAULT 0,
    has_crmv            boolean NOT NULL DEFAULT false,
    title               text NOT NULL DEFAULT '',
    biography           text NOT NULL DEFAULT '',
    crmv                text NOT NULL DEFAULT '',
    phone               text NOT NULL DEFAULT '',
    has_whatsapp        boolean NOT NULL DEFAULT false,
    is_not_veterinarian boolean NOT NULL DEFAULT false,
    cpf                 text NOT NULL DEFAULT '',
    time_zone           text NOT NULL DEFAULT 'America/Sao_Paulo',
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),

    CONSTRAINT profiles_first_name_len CHECK (btrim(first_name) <> '' AND char_length(first_name) <= 100),
    CONSTRAINT profiles_last_name_len CHECK (char_length(last_name) <= 100),
    CONSTRAINT profiles_avatar_url_len CHECK (char_length(avatar_url) <= 2048),
    CONSTRAINT profiles_title_len CHECK (char_length(title) <= 120),
    CONSTRAINT profiles_biography_len CHECK (char_length(biography) <= 2000),
    CONSTRAINT profiles_specialties_known CHECK (
        specialties <@ ARRAY['clinica_geral', 'cirurgia', 'reproducao', 'dermatologia', 'cardiologia',
            'ortopedia', 'oftalmologia', 'neurologia', 'oncologia', 'medicina_preventiva',
            'emergencias', 'animais_silvestres']::text[]
        AND cardinality(specialties) <= 12),
    CONSTRAINT profiles_connections_count_nonneg CHECK (connections_count >= 0),
    -- Canonical form written by core/profiles: "CRMV-SP 12345".
    CONSTRAINT profiles_crmv_format CHECK (crmv = '' OR crmv ~ '^CRMV-[A-Z]{2} [1-9][0-9]{0,5}$'),
    CONSTRAINT profiles_crmv_when_has_crmv CHECK (NOT has_crmv OR crmv <> ''),
    CONSTRAINT profiles_phone_digits CHECK (phone = '' OR phone ~ '^[0-9]{10,11}$'),
    CONSTRAINT profiles_cpf_digits CHECK (cpf = '' OR cpf ~ '^[0-9]{11}$'),
    CONSTRAINT profiles_time_zone_len CHECK (time_zone <> '' AND char_length(time_zone) <= 64)
);

-- Public profile pages and suggestions list members by name.
CREATE INDEX profiles_name ON profiles (lower(first_name), lower(last_name));

-- +goose Down
DROP TABLE profiles;
