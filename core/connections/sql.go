package connections

// SQL fragments for features that filter by a member's network inside their
// own query (the community feed), so the rules of who is connected and who
// blocked whom stay written here only. Arguments are SQL expressions of
// type uuid (a placeholder such as "$2::uuid" or a column such as
// "p.author_id"); they are pasted into the fragment, never user input.

// ConnectedIDsSQL is a subquery yielding one column, the ids of the members
// connected (accepted) to user. Each half reads one of the requester and
// receiver indexes.
func ConnectedIDsSQL(user string) string {
	return `SELECT c.receiver_id FROM connections c WHERE c.requester_id = ` + user + ` AND c.status = 'accepted'
		UNION ALL
		SELECT c.requester_id FROM connections c WHERE c.receiver_id = ` + user + ` AND c.status = 'accepted'`
}

// BlockedEitherWaySQL is a boolean expression: true when a blocked b or b
// blocked a. Both directions are primary-key lookups.
func BlockedEitherWaySQL(a, b string) string {
	return `EXISTS (SELECT 1 FROM user_blocks ub WHERE (ub.blocker_id = ` + a + ` AND ub.blocked_id = ` + b + `)
		OR (ub.blocker_id = ` + b + ` AND ub.blocked_id = ` + a + `))`
}
