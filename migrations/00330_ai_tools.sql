-- +goose Up
-- AI generations made by tool plugins through the host (host.AI): the
-- per-member, per-tool daily count the quota is applied on, with the tokens
-- and cost it spent, and one row per call (no prompt or answer text: the
-- plugin keeps what the member sees) for the backoffice's breakdown by tool,
-- template and template version.
CREATE TABLE ai_tool_usage_daily (
    user_id           uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    tool_id           text NOT NULL CHECK (tool_id ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
    day               date NOT NULL,
    calls             integer NOT NULL DEFAULT 0 CHECK (calls >= 0),
    prompt_tokens     bigint NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
    completion_tokens bigint NOT NULL DEFAULT 0 CHECK (completion_tokens >= 0),
    cost_usd          numeric(14, 8) NOT NULL DEFAULT 0 CHECK (cost_usd >= 0),
    PRIMARY KEY (user_id, tool_id, day)
);
CREATE INDEX ai_tool_usage_daily_day_idx ON ai_tool_usage_daily (day, tool_id);

CREATE TABLE ai_tool_calls (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id           uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    tool_id           text NOT NULL,
    template          text NOT NULL,
    template_version  text NOT NULL,
    model             text NOT NULL,
    image             boolean NOT NULL DEFAULT false,
    status            text NOT NULL CHECK (status IN ('complete', 'refused', 'failed', 'length')),
    prompt_tokens     integer NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
    completion_tokens integer NOT NULL DEFAULT 0 CHECK (completion_tokens >= 0),
    cost_usd          numeric(14, 8) NOT NULL DEFAULT 0 CHECK (cost_usd >= 0),
    latency_ms        integer NOT NULL DEFAULT 0,
    created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ai_tool_calls_tool_idx ON ai_tool_calls (tool_id, created_at DESC);
CREATE INDEX ai_tool_calls_user_idx ON ai_tool_calls (user_id);

-- +goose Down
DROP TABLE ai_tool_calls;
DROP TABLE ai_tool_usage_daily;
