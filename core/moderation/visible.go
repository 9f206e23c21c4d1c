package moderation

import "fmt"

// Target types a report or a moderation decision is about.
const (
	TargetPost    = "post"
	TargetComment = "comment"
)

// VisibleSQL returns a SQL boolean expression that is true when the target of
// targetType whose id is the SQL expression idColumn (e.g. "p.item_id") is
// neither hidden pending review nor removed: feeds and comment lists add it to
// their WHERE clause. A target nobody reported or moderated has no row and is
// visible. targetType must be TargetPost or TargetComment (a programming error
// otherwise, so it panics rather than build SQL from anything else).
func VisibleSQL(targetType, idColumn string) string {
	if targetType != TargetPost && targetType != TargetComment {
		panic(fmt.Sprintf("moderation: unknown target type %q", targetType))
	}
	// The alias is unusual so it never captures a column of the caller's
	// query named in idColumn.
	return `NOT EXISTS (SELECT 1 FROM moderation_targets mod_vis WHERE mod_vis.target_type = '` + targetType +
		`' AND mod_vis.target_id = ` + idColumn + ` AND mod_vis.state <> 'publicado')`
}

// ReportedBySQL returns a SQL boolean that is true when the member whose id
// is the SQL expression readerExpr reported the target of targetType whose
// id is idColumn: a reporter's own feed leaves what they reported out.
func ReportedBySQL(targetType, idColumn, readerExpr string) string {
	if targetType != TargetPost && targetType != TargetComment {
		panic(fmt.Sprintf("moderation: unknown target type %q", targetType))
	}
	return `EXISTS (SELECT 1 FROM moderation_reports mod_rep WHERE mod_rep.target_type = '` + targetType +
		`' AND mod_rep.target_id = ` + idColumn + ` AND mod_rep.reporter_id = ` + readerExpr + `)`
}
