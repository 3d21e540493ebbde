package transport

import (
	"net/http"

	"github.com/openjury/openjury/marketplace"
	"github.com/openjury/openjury/wire"
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

func newCommentJSON(c *marketplace.Comment) wire.Comment {
	return wire.Comment{
		ID:            c.ID,
		TargetType:    string(c.Target),
		TargetID:      c.TargetID,
		ParentID:      optString(c.ParentID),
		AuthorAddress: c.Author.String(),
		Content:       c.Content,
		CreatedAt:     wire.NewTime(c.CreatedAt),
		DeletedAt:     optTimePtr(c.DeletedAt),
		DeletedBy:     optString(c.DeletedBy.String()),
	}
}

func newPostJSON(p *marketplace.Post) wire.Post {
	return wire.Post{
		ID:            p.ID,
		Title:         p.Title,
		Content:       p.Content,
		AuthorAddress: p.Author.String(),
		CreatedAt:     wire.NewTime(p.CreatedAt),
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
		return respond(w, wire.ListCommentsResponse{Comments: mapEach(page.Comments, newCommentJSON), NextCursor: optString(page.NextCursor)})
	}
}

// createComment serves a new comment on one target kind, whose id is the
// path value param.
func (s *server) createComment(target marketplace.TargetType, param string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		var req wire.CreateCommentRequest
		m, err := decodeRequest(r, &req)
		if err != nil {
			return err
		}
		if err := m.require("content"); err != nil {
			return err
		}
		c, err := s.svc.Market.AddComment(r.Context(), callerFrom(r.Context()).addr, target, r.PathValue(param), marketplace.CommentInput{
			Content:  req.Content,
			ParentID: deref(req.ParentID),
		})
		if err != nil {
			return err
		}
		return respond(w, wire.CreateCommentResponse{Comment: newCommentJSON(c)})
	}
}

func (s *server) deleteComment(w http.ResponseWriter, r *http.Request) error {
	c, err := s.svc.Market.DeleteComment(r.Context(), callerFrom(r.Context()).addr, r.PathValue("comment_id"))
	if err != nil {
		return err
	}
	return respond(w, wire.CreateCommentResponse{Comment: newCommentJSON(c)})
}

func (s *server) createPost(w http.ResponseWriter, r *http.Request) error {
	var req wire.CreatePostRequest
	m, err := decodeRequest(r, &req)
	if err != nil {
		return err
	}
	if err := m.require("title", "content"); err != nil {
		return err
	}
	p, err := s.svc.Market.CreatePost(r.Context(), callerFrom(r.Context()).addr, marketplace.PostInput{
		Title:   req.Title,
		Content: req.Content,
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
	return respond(w, wire.ListPostsResponse{Posts: mapEach(page.Posts, newPostJSON), NextCursor: optString(page.NextCursor)})
}
