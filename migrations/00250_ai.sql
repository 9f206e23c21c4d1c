-- +goose Up
-- VetClube IA (core/ai): a member's conversations with the assistant, each
-- turn with what it cost, the daily usage the limits count, the one-time
-- acceptance of the clinical-support disclaimer, and answers members report.

CREATE TABLE ai_conversations (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- the client's key for the create request: a retried create returns
    -- the conversation the first one made
    client_id   uuid,
    title       text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 120),
    search      tsvector GENERATED ALWAYS AS (to_tsvector('vetclube_pt', title)) STORED,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT ai_conversations_client UNIQUE (user_id, client_id)
);
CREATE INDEX ai_conversations_user_idx ON ai_conversations (user_id, updated_at DESC, id);
CREATE INDEX ai_conversations_search_idx ON ai_conversations USING gin (search);

CREATE TABLE ai_messages (
    id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    conversation_id   uuid NOT NULL REFERENCES ai_conversations (id) ON DELETE CASCADE,
    -- order within the conversation; a user turn and its answer are
    -- consecutive
    seq               integer NOT NULL CHECK (seq >= 1),
    role              text NOT NULL CHECK (role IN ('user', 'assistant')),
    -- the client's key for a sent question (retries are refused, never doubled)
    client_id         uuid,
    content           text NOT NULL DEFAULT '' CHECK (char_length(content) <= 200000),
    -- streaming: being answered; complete; stopped ('Parar'); failed (the
    -- service failed, what arrived is kept); length (cut at the model's limit)
    status            text NOT NULL DEFAULT 'complete' CHECK (status IN ('streaming', 'complete', 'stopped', 'failed', 'length')),
    -- red-flag terms found in the question (the emergency banner)
    red_flags         text[] NOT NULL DEFAULT '{}',
    -- the numbered passages given to the model for this turn, and tool results
    sources           jsonb NOT NULL DEFAULT '[]',
    tools             jsonb NOT NULL DEFAULT '[]',
    model             text NOT NULL DEFAULT '',
    prompt_tokens     integer NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
    completion_tokens integer NOT NULL DEFAULT 0 CHECK (completion_tokens >= 0),
    latency_ms        integer NOT NULL DEFAULT 0 CHECK (latency_ms >= 0),
    first_byte_ms     integer CHECK (first_byte_ms >= 0),
    -- US dollars, from the configured price per model
    cost_usd          numeric(14, 8) NOT NULL DEFAULT 0 CHECK (cost_usd >= 0),
    error             text NOT NULL DEFAULT '',
    search            tsvector GENERATED ALWAYS AS (to_tsvector('vetclube_pt', left(content, 20000))) STORED,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT ai_messages_seq UNIQUE (conversation_id, seq),
    CONSTRAINT ai_messages_client UNIQUE (conversation_id, client_id),
    CONSTRAINT ai_messages_user_fields CHECK (role = 'assistant' OR (status = 'complete' AND model = ''))
);
CREATE INDEX ai_messages_search_idx ON ai_messages USING gin (search);
CREATE INDEX ai_messages_created_idx ON ai_messages (created_at) WHERE role = 'assistant';

-- What the limits count: questions asked and tokens spent per member per day
-- of São Paulo's calendar (America/Sao_Paulo).
CREATE TABLE ai_usage_daily (
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    day         date NOT NULL,
    messages    integer NOT NULL DEFAULT 0 CHECK (messages >= 0),
    tokens      bigint NOT NULL DEFAULT 0 CHECK (tokens >= 0),
    cost_usd    numeric(14, 8) NOT NULL DEFAULT 0 CHECK (cost_usd >= 0),
    PRIMARY KEY (user_id, day)
);
CREATE INDEX ai_usage_daily_day_idx ON ai_usage_daily (day);

-- The clinical-support disclaimer, accepted once per member.
CREATE TABLE ai_disclaimer_acceptances (
    user_id     uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    version     integer NOT NULL CHECK (version >= 1),
    accepted_at timestamptz NOT NULL DEFAULT now()
);

-- 'Reportar resposta': one report per member per answer.
CREATE TABLE ai_reports (
    message_id  uuid NOT NULL REFERENCES ai_messages (id) ON DELETE CASCADE,
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason      text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 1000),
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (message_id, user_id)
);
CREATE INDEX ai_reports_created_idx ON ai_reports (created_at DESC);

-- +goose Down
DROP TABLE ai_reports;
DROP TABLE ai_disclaimer_acceptances;
DROP TABLE ai_usage_daily;
DROP TABLE ai_messages;
DROP TABLE ai_conversations;
