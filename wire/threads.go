package wire

// Comment is a comment on a job, a submission or a post. A deleted one
// keeps its place with Content "" and DeletedAt and DeletedBy set;
// ParentID is null for a top-level comment.
type Comment struct {
	ID            string  `json:"id"`
	TargetType    string  `json:"target_type"`
	TargetID      string  `json:"target_id"`
	ParentID      *string `json:"parent_id"`
	AuthorAddress string  `json:"author_address"`
	Content       string  `json:"content"`
	CreatedAt     Time    `json:"created_at"`
	DeletedAt     *Time   `json:"deleted_at"`
	DeletedBy     *string `json:"deleted_by"`
}

// CreateCommentRequest writes a comment, a reply when ParentID is set.
type CreateCommentRequest struct {
	Content  string  `json:"content"`
	ParentID *string `json:"parent_id,omitempty"`
}

// CreateCommentResponse wraps a comment.
type CreateCommentResponse struct {
	Comment Comment `json:"comment"`
}

// ListCommentsResponse is one page of comments.
type ListCommentsResponse struct {
	Comments   []Comment `json:"comments"`
	NextCursor *string   `json:"next_cursor"`
}

// Post is a community post.
type Post struct {
	ID            string   `json:"id"`
	Title         string   `json:"title"`
	Content       string   `json:"content"`
	AuthorAddress string   `json:"author_address"`
	CreatedAt     Time     `json:"created_at"`
	Tags          []string `json:"tags"`
	DeletedAt     *Time    `json:"deleted_at"`
	DeletedBy     *string  `json:"deleted_by"`
}

// CreatePostRequest writes a community post.
type CreatePostRequest struct {
	Title   string   `json:"title"`
	Content string   `json:"content"`
	Tags    []string `json:"tags,omitempty"`
}

// ListPostsResponse is one page of posts.
type ListPostsResponse struct {
	Posts      []Post  `json:"posts"`
	NextCursor *string `json:"next_cursor"`
}
