package notifications

import "context"

// Notice is what a producer (check-in, trials, editorial workflow, events,
// courses, community, plugins) asks the notifications service to tell one
// user. The service applies the user's preferences, stores the in-app row
// (folding it into an unread notification with the same GroupKey), announces
// it on the live stream and hands it to push delivery.
type Notice struct {
	UserID  string
	Type    string // like, comment, connection, challenge, course, event, community, marketing, system, ...
	Title   string
	Message string

	RelatedUserID    string // who acted ("" for none)
	RelatedPostID    string
	RelatedCommentID string

	Link string            // in-app path a click opens ("" for none)
	Data map[string]string // ids an action needs, e.g. {"connection_id": "..."}

	// GroupKey folds notices of one kind about one target into one unread
	// notification ("" never folds). Title and Message are the single
	// actor's text ("Ana curtiu seu post"); once a second actor folds in,
	// the message becomes GroupMessage.
	GroupKey string
	// GroupMessage is the message of a group of several actors, with
	// {actor} (the latest actor's first name), {others} (how many more) and
	// {pessoas} ("pessoa" or "pessoas"). Empty: a default for the type, e.g.
	// "{actor} e mais {others} {pessoas} curtiram seu post" for a like.
	GroupMessage string
	// ActorName names RelatedUserID in group messages; empty: the first
	// name on their profile.
	ActorName string
	// IdempotencyKey makes a retried producer notify once ("" for none).
	IdempotencyKey string
}

// Sender is the notifications service as producers see it.
type Sender interface {
	Send(ctx context.Context, n Notice) (Notification, error)
}
