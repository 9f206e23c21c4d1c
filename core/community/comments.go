package community

import (
	"github.com/vetclube/vetclube/core/connections"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/moderation"
)

// PostLink is where a notice about a post leads: the feed with that post's
// comments open.
func PostLink(postID string) string { return "/community?post=" + postID }

// CommentRules are the community's rules on comments, for every item they
// are written on: members who blocked each other do not see each other's
// items and comments, moderation hides posts and comments, the community's
// comments are for members only, and a post's author (a member, unlike the
// editorial team behind other types) is told about comments on the post.
func CommentRules() engagement.Rules {
	return engagement.Rules{
		ItemVisible: func(itemColumn, authorColumn, reader string) string {
			return moderation.VisibleSQL(moderation.TargetPost, itemColumn) + ` AND ` + notBlockedSQL(authorColumn, reader)
		},
		CommentVisible: func(commentColumn, userColumn, reader string) string {
			return moderation.VisibleSQL(moderation.TargetComment, commentColumn) + ` AND ` + notBlockedSQL(userColumn, reader)
		},
		MembersOnly: func(itemType string) bool { return itemType == TypeID },
		NoticeLink: func(itemType, itemID string) string {
			if itemType != TypeID {
				return ""
			}
			return PostLink(itemID)
		},
	}
}

// notBlockedSQL is true when neither the reader (may be NULL) nor the member
// in userColumn (may be NULL) blocked the other.
func notBlockedSQL(userColumn, reader string) string {
	return `(` + reader + ` IS NULL OR ` + userColumn + ` IS NULL OR NOT ` + connections.BlockedEitherWaySQL(reader, userColumn) + `)`
}
