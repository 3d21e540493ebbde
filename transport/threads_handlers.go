package transport

import (
	"net/http"

	"github.com/openjury/openjury"
	"github.com/openjury/openjury/marketplace"
)

func (s *server) threadRoutes() []route {
	job, sub, post := marketplace.TargetJob, marketplace.TargetSubmission, marketplace.TargetPost
	return []route{
		{pattern: "GET /api/v1/jobs/{job_id}/comments", op: "listJobComments", service: "list_job_comments", cached: true, h: s.listComments(job, "job_id")},
		{pattern: "POST /api/v1/jobs/{job_id}/comments", op: "createJobComment", service: "create_job_comment", auth: authBearer, h: s.createComment(job, "job_id")},
		{pattern: "GET /api/v1/submissions/{submission_id}/comments", op: "listSubmissionComments", service: "list_submission_comments", cached: true, h: s.listComments(sub, "submission_id")},
		{pattern: "POST /api/v1/submissions/{submission_id}/comments", op: "createSubmissionComment", service: "create_submission_comment", auth: authBearer, h: s.createComment(sub, "submission_id")},
		{pattern: "GET /api/v1/posts/{post_id}/comments", op: "listPostComments", service: "list_post_comments", cached: true, h: s.listComments(post, "post_id")},
		{pattern: "POST /api/v1/posts/{post_id}/comments", op: "createPostComment", service: "create_post_comment", auth: authBearer, h: s.createComment(post, "post_id")},
		{pattern: "DELETE /api/v1/comments/{comment_id}", op: "deleteComment", service: "delete_comment", auth: authBearer, h: s.deleteComment},
		{pattern: "GET /api/v1/posts", op: "listPosts", service: "list_posts", cached: true, h: s.listPosts},
		{pattern: "POST /api/v1/posts", op: "createPost", service: "create_post", auth: authBearer, h: s.createPost},
		{pattern: "GET /api/v1/posts/{post_id}", op: "getPost", service: "get_post", cached: true, h: s.getPost},
	}
}

// createCommentRequest is CreateCommentRequest. parent_id null or absent
// starts a new thread.
type createCommentRequest struct {
	Content  *string `json:"content"`
	ParentID *string `json:"parent_id"`
}

// commentJSON is the Comment resource. A deleted comment has content "" and
// deleted_at and deleted_by set; they are null otherwise, as is parent_id
// for a top-level comment.
type commentJSON struct {
	ID            string  `json:"id"`
	TargetType    string  `json:"target_type"`
	TargetID      string  `json:"target_id"`
	ParentID      *string `json:"parent_id"`
	AuthorAddress string  `json:"author_address"`
	Content       string  `json:"content"`
	CreatedAt     string  `json:"created_at"`
	DeletedAt     *string `json:"deleted_at"`
	DeletedBy     *string `json:"deleted_by"`
}

// createCommentResponse is CreateCommentResponse, also the answer of a
// delete.
type createCommentResponse struct {
	Comment commentJSON `json:"comment"`
}

// listCommentsResponse is ListCommentsResponse plus the cursor of the next
// page.
type listCommentsResponse struct {
	Comments   []commentJSON `json:"comments"`
	NextCursor *string       `json:"next_cursor"`
}

func newCommentJSON(c *marketplace.Comment) commentJSON {
	return commentJSON{
		ID:            c.ID,
		TargetType:    string(c.Target),
		TargetID:      c.TargetID,
		ParentID:      optString(c.ParentID),
		AuthorAddress: c.Author.String(),
		Content:       c.Content,
		CreatedAt:     openjury.FormatTime(c.CreatedAt),
		DeletedAt:     optTimePtr(c.DeletedAt),
		DeletedBy:     optString(c.DeletedBy.String()),
	}
}

// createPostRequest is CreatePostRequest. Pointers tell absent fields apart.
type createPostRequest struct {
	Title   *string  `json:"title"`
	Content *string  `json:"content"`
	Tags    []string `json:"tags"`
}

// postJSON is the Post resource; tags is [] when there are none, deleted_at
// and deleted_by are null unless the post was deleted.
type postJSON struct {
	ID            string   `json:"id"`
	Title         string   `json:"title"`
	Content       string   `json:"content"`
	AuthorAddress string   `json:"author_address"`
	CreatedAt     string   `json:"created_at"`
	Tags          []string `json:"tags"`
	DeletedAt     *string  `json:"deleted_at"`
	DeletedBy     *string  `json:"deleted_by"`
}

// listPostsResponse is ListPostsResponse plus the cursor of the next page.
type listPostsResponse struct {
	Posts      []postJSON `json:"posts"`
	NextCursor *string    `json:"next_cursor"`
}

func newPostJSON(p *marketplace.Post) postJSON {
	return postJSON{
		ID:            p.ID,
		Title:         p.Title,
		Content:       p.Content,
		AuthorAddress: p.Author.String(),
		CreatedAt:     openjury.FormatTime(p.CreatedAt),
		Tags:          orEmpty(p.Tags),
		DeletedAt:     optTimePtr(p.DeletedAt),
		DeletedBy:     optString(p.DeletedBy.String()),
	}
}

// listComments serves the comments of one target kind, whose id is the
// path value param.
func (s *server) listComments(target marketplace.TargetType, param string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		limit, err := queryInt(r, "limit", marketplace.DefaultCommentLimit, 1, marketplace.MaxCommentLimit)
		if err != nil {
			return err
		}
		page, err := s.svc.Market.Comments(r.Context(), target, r.PathValue(param), marketplace.ListInput{
			Limit:  limit,
			Cursor: r.URL.Query().Get("cursor"),
		})
		if err != nil {
			return err
		}
		return respond(w, listCommentsResponse{Comments: mapEach(page.Comments, newCommentJSON), NextCursor: optString(page.NextCursor)})
	}
}

// createComment serves a new comment on one target kind, whose id is the
// path value param.
func (s *server) createComment(target marketplace.TargetType, param string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		var req createCommentRequest
		if err := decodeJSON(r, &req); err != nil {
			return err
		}
		if req.Content == nil {
			return required("content")
		}
		c, err := s.svc.Market.AddComment(r.Context(), callerFrom(r.Context()).addr, target, r.PathValue(param), marketplace.CommentInput{
			Content:  *req.Content,
			ParentID: deref(req.ParentID),
		})
		if err != nil {
			return err
		}
		return respond(w, createCommentResponse{Comment: newCommentJSON(c)})
	}
}

func (s *server) deleteComment(w http.ResponseWriter, r *http.Request) error {
	c, err := s.svc.Market.DeleteComment(r.Context(), callerFrom(r.Context()).addr, r.PathValue("comment_id"))
	if err != nil {
		return err
	}
	return respond(w, createCommentResponse{Comment: newCommentJSON(c)})
}

func (s *server) createPost(w http.ResponseWriter, r *http.Request) error {
	var req createPostRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	switch {
	case req.Title == nil:
		return required("title")
	case req.Content == nil:
		return required("content")
	}
	p, err := s.svc.Market.CreatePost(r.Context(), callerFrom(r.Context()).addr, marketplace.PostInput{
		Title:   *req.Title,
		Content: *req.Content,
		Tags:    req.Tags,
	})
	if err != nil {
		return err
	}
	return respond(w, newPostJSON(p))
}

func (s *server) getPost(w http.ResponseWriter, r *http.Request) error {
	p, err := s.svc.Market.Post(r.Context(), r.PathValue("post_id"))
	if err != nil {
		return err
	}
	return respond(w, newPostJSON(p))
}

func (s *server) listPosts(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	limit, err := queryInt(r, "limit", marketplace.DefaultPostLimit, 1, marketplace.MaxPostLimit)
	if err != nil {
		return err
	}
	page, err := s.svc.Market.ListPosts(r.Context(), marketplace.ListPostsInput{
		Tag:    q.Get("tag"),
		Limit:  limit,
		Cursor: q.Get("cursor"),
	})
	if err != nil {
		return err
	}
	return respond(w, listPostsResponse{Posts: mapEach(page.Posts, newPostJSON), NextCursor: optString(page.NextCursor)})
}
