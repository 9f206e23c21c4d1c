package main

import "github.com/vetclube/vetclube/plugins/sdk"

// Migrations create the plugin's schema: the published bank (copied from
// the content type on publish) and the members' attempts.
var Migrations = []sdk.Migration{{Version: 1, Name: "bank and attempts", SQL: `
CREATE TABLE questions (
  id text PRIMARY KEY,
  version int NOT NULL,
  title text NOT NULL,
  area text NOT NULL,
  difficulty text NOT NULL,
  source text NOT NULL DEFAULT '',
  statement text NOT NULL,
  options jsonb NOT NULL,
  correct int NOT NULL,
  explanation text NOT NULL,
  active boolean NOT NULL DEFAULT true
);
CREATE INDEX questions_area ON questions (area) WHERE active;

CREATE TABLE attempts (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  mode text NOT NULL CHECK (mode IN ('simulado', 'quiz')),
  seq int NOT NULL,
  areas jsonb NOT NULL,
  size int NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'submitted')),
  started_at timestamptz NOT NULL,
  deadline timestamptz,
  submitted_at timestamptz,
  timed_out boolean NOT NULL DEFAULT false,
  score int,
  coins int,
  coins_credited boolean NOT NULL DEFAULT false,
  UNIQUE (user_id, mode, seq)
);
CREATE UNIQUE INDEX attempts_one_open ON attempts (user_id, mode) WHERE status = 'open';

CREATE TABLE attempt_questions (
  attempt_id text NOT NULL REFERENCES attempts (id) ON DELETE CASCADE,
  pos int NOT NULL,
  question_id text NOT NULL,
  area text NOT NULL,
  correct int NOT NULL,
  answer int,
  marked boolean NOT NULL DEFAULT false,
  answered_at timestamptz,
  PRIMARY KEY (attempt_id, pos)
);

CREATE TABLE daily_coins (
  user_id text NOT NULL,
  day date NOT NULL,
  coins int NOT NULL DEFAULT 0,
  last_grant int NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, day)
);
`}}
