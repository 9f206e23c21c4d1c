package engagement

// Rules are what the package owning a kind of content adds to the comments
// on its items: who may see an item's comments and a comment (blocks between
// members, moderation), whether visitors may read them, and whether a
// comment tells the item's author. The composition root injects them (the
// community's, community.CommentRules); engagement itself knows no content
// type. A nil field adds nothing: every published item's comments are open,
// visitors read public types' comments, nobody is told.
type Rules struct {
	// ItemVisible is a SQL condition on the published item in itemColumn,
	// written by authorColumn: true when reader (a SQL expression, NULL for a
	// visitor) may see it and its comments.
	ItemVisible func(itemColumn, authorColumn, reader string) string
	// CommentVisible is a SQL condition: true when reader may see the comment
	// in commentColumn, written by userColumn (NULL once its author is gone).
	CommentVisible func(commentColumn, userColumn, reader string) string
	// MembersOnly says whether only signed-in members read the comments on
	// items of itemType.
	MembersOnly func(itemType string) bool
	// NoticeLink is where a notice about a comment on an item of itemType
	// leads; "" when that type's authors are not told about comments.
	NoticeLink func(itemType, itemID string) string
}

func (r Rules) itemVisible(itemColumn, authorColumn, reader string) string {
	if r.ItemVisible == nil {
		return "TRUE"
	}
	return r.ItemVisible(itemColumn, authorColumn, reader)
}

func (r Rules) commentVisible(commentColumn, userColumn, reader string) string {
	if r.CommentVisible == nil {
		return "TRUE"
	}
	return r.CommentVisible(commentColumn, userColumn, reader)
}

func (r Rules) membersOnly(itemType string) bool {
	return r.MembersOnly != nil && r.MembersOnly(itemType)
}

func (r Rules) noticeLink(itemType, itemID string) string {
	if r.NoticeLink == nil {
		return ""
	}
	return r.NoticeLink(itemType, itemID)
}
