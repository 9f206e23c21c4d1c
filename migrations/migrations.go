// Package migrations embeds the plain-SQL schema migrations applied by goose
// at start-up (core/postgres.Migrate). File numbers are grouped by domain so
// parallel work never collides: 00001–00009 platform, 00010–00019 accounts
// and sessions, 00020–00029 profiles and roles, 00030–00039 plugins,
// 00040–00049 points, check-in, subscriptions and notifications, 00050–00059
// content, engagement and editorial (00057 adds the revisor role).
package migrations

import "embed"

// FS holds every *.sql migration in this folder.
//
//go:embed *.sql
var FS embed.FS
