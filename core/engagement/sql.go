package engagement

// SQL builders for the packages that show engagement next to their own rows
// (course and video cards, the community feed, the content lists). Engagement owns its tables;
// a reader joins them only through these, so the tables' shape stays this
// package's to change.

// CountersJoinSQL left-joins the item's counters (views, likes, comments)
// as alias onto the item id in itemColumn.
func CountersJoinSQL(alias, itemColumn string) string {
	return ` LEFT JOIN engagement_counters ` + alias + ` ON ` + alias + `.item_id = ` + itemColumn + ` `
}

// FavoriteJoinSQL left-joins, as alias, the favourite the member in userExpr
// made of the item in itemColumn (alias.user_id IS NOT NULL: a favourite).
func FavoriteJoinSQL(alias, itemColumn, userExpr string) string {
	return ` LEFT JOIN engagement_favorites ` + alias + ` ON ` + alias + `.item_id = ` + itemColumn + ` AND ` + alias + `.user_id = ` + userExpr + ` `
}

// FavoritesOnlyJoinSQL joins, as alias, the favourites the member in
// userExpr made: only the items in itemColumn that member favourited stay.
func FavoritesOnlyJoinSQL(alias, itemColumn, userExpr string) string {
	return ` JOIN engagement_favorites ` + alias + ` ON ` + alias + `.item_id = ` + itemColumn + ` AND ` + alias + `.user_id = ` + userExpr + ` `
}

// FavoritesSQL is the favourites table under alias, for a FROM or JOIN
// (columns item_id, user_id).
func FavoritesSQL(alias string) string { return ` engagement_favorites ` + alias + ` ` }

// ReactionJoinSQL left-joins, as alias, the reaction (alias.reaction: like or
// dislike) of the member in userExpr to the item in itemColumn.
func ReactionJoinSQL(alias, itemColumn, userExpr string) string {
	return ` LEFT JOIN engagement_reactions ` + alias + ` ON ` + alias + `.item_id = ` + itemColumn + ` AND ` + alias + `.user_id = ` + userExpr + ` `
}

// ProgressJoinSQL left-joins, as alias, the watching progress
// (alias.percent) of the member in userExpr on the item in itemColumn.
func ProgressJoinSQL(alias, itemColumn, userExpr string) string {
	return ` LEFT JOIN engagement_progress ` + alias + ` ON ` + alias + `.item_id = ` + itemColumn + ` AND ` + alias + `.user_id = ` + userExpr + ` `
}
