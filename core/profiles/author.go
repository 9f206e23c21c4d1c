package profiles

// Author is a member as shown next to what they did (a post's author, a
// comment's, a report's reporter): one shape wherever a member signs
// something. Nullable text is null, unlike Summary's; a nil *Author is an
// account that is gone (the web shows 'Usuário VetClube').
type Author struct {
	ID        string  `json:"id"`
	FirstName string  `json:"first_name"`
	LastName  string  `json:"last_name"`
	AvatarURL *string `json:"avatar_url"`
	Title     *string `json:"title"`
	Verified  bool    `json:"verified"`
}
