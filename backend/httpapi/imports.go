package httpapi

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/imports"
	"github.com/shortlink/shortlink/backend/plan"
)

// importAnswer is an import as the API shows it.
type importAnswer struct {
	ID       int64  `json:"id"`
	State    string `json:"state"`
	Filename string `json:"filename"`
	Format   string `json:"format"`
	Bytes    int64  `json:"bytes"`
	Rows     int    `json:"rows"`
	// Done counts the rows with a result so far, Failed those of them that failed, Created
	// the links made.
	Done       int        `json:"done"`
	Failed     int        `json:"failed"`
	Created    int        `json:"created"`
	Error      string     `json:"error,omitempty"`
	ResultsURL string     `json:"results_url"`
	CreatedAt  time.Time  `json:"created_at"`
	StartedAt  *time.Time `json:"started_at"`
	FinishedAt *time.Time `json:"finished_at"`
}

func answerImport(im *imports.Import) importAnswer {
	return importAnswer{
		ID: im.ID, State: im.State, Filename: im.Filename, Format: im.Format, Bytes: im.Bytes, Rows: im.Rows,
		Done: im.Done, Failed: im.Failed, Created: im.Done - im.Failed, Error: im.Error,
		ResultsURL: fmt.Sprintf("/api/v1/workspaces/%d/imports/%d/results.csv", im.WorkspaceID, im.ID),
		CreatedAt:  im.CreatedAt, StartedAt: im.StartedAt, FinishedAt: im.FinishedAt,
	}
}

// uploadWindow is how long a client gets to send an import's file.
const uploadWindow = 15 * time.Minute

// multipartSlack is what a multipart body may hold beyond its file: boundaries, part headers,
// other small fields.
const multipartSlack = 64 << 10

// createImport takes a CSV file, as the multipart/form-data field "file" or as a text/csv body,
// reading it as it arrives, and answers 202 once it is stored: the batch feature.
func (s *Server) createImport(c *gin.Context) {
	ctx := c.Request.Context()
	ws := workspaceID(c)
	mt, _, err := mime.ParseMediaType(c.GetHeader("Content-Type"))
	if err != nil || (mt != "multipart/form-data" && mt != "text/csv" && mt != "application/csv") {
		s.fail(c, apperr.Errorf(apperr.Invalid, "send the CSV file as the multipart/form-data field \"file\", or as the body with Content-Type: text/csv").For("file_required", "file"))
		return
	}
	if err := s.plans.Require(ctx, ws, plan.Batch); err != nil {
		s.fail(c, err)
		return
	}
	if c.Request.ContentLength > s.maxImport+multipartSlack {
		s.fail(c, tooLargeFile(s.maxImport))
		return
	}
	var file io.Reader
	name := ""
	// A large file on a slow link takes longer than the server's ReadTimeout allows a body.
	_ = http.NewResponseController(c.Writer).SetReadDeadline(time.Now().Add(uploadWindow)) // not every writer can
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, s.maxImport+multipartSlack)
	if mt == "multipart/form-data" {
		mr, err := c.Request.MultipartReader()
		if err != nil {
			s.fail(c, apperr.Errorf(apperr.Invalid, "the multipart body cannot be read: %v", err).For("file_unreadable", "file"))
			return
		}
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				s.fail(c, apperr.Errorf(apperr.Invalid, "the multipart body has no field named \"file\"").For("file_required", "file"))
				return
			}
			if err != nil {
				s.fail(c, multipartError(err))
				return
			}
			if part.FormName() == "file" {
				file, name = part, part.FileName()
				break
			}
			_ = part.Close()
		}
	} else {
		file = c.Request.Body
		if _, params, err := mime.ParseMediaType(c.GetHeader("Content-Disposition")); err == nil {
			name = params["filename"]
		}
	}
	im, err := s.imports.Submit(ctx, ws, userID(c), name, &fileLimit{r: file, left: s.maxImport, limit: s.maxImport})
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			err = tooLargeFile(s.maxImport)
		}
		s.fail(c, err)
		return
	}
	c.Header("Location", fmt.Sprintf("/api/v1/workspaces/%d/imports/%d", ws, im.ID))
	c.JSON(http.StatusAccepted, answerImport(im))
}

func tooLargeFile(limit int64) error {
	return apperr.Errorf(apperr.TooLarge, "the file is larger than %d bytes", limit).For("file_too_large", "file")
}

// multipartError explains a multipart body that cannot be read: too large, or malformed.
func multipartError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return err
	}
	return apperr.Errorf(apperr.Invalid, "the multipart body cannot be read: %v", err).For("file_unreadable", "file")
}

// fileLimit fails with too_large once a file goes past limit bytes.
type fileLimit struct {
	r           io.Reader
	left, limit int64
}

func (f *fileLimit) Read(p []byte) (int, error) {
	if f.left <= 0 {
		// One byte more tells a file of exactly limit bytes from a larger one.
		var one [1]byte
		if n, _ := io.ReadFull(f.r, one[:]); n > 0 {
			return 0, tooLargeFile(f.limit)
		}
		return 0, io.EOF
	}
	if int64(len(p)) > f.left {
		p = p[:f.left]
	}
	n, err := f.r.Read(p)
	f.left -= int64(n)
	return n, err
}

func (s *Server) getImport(c *gin.Context) {
	id, ok := s.pathID(c, "id", "import")
	if !ok {
		return
	}
	im, err := s.imports.Get(c.Request.Context(), workspaceID(c), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, answerImport(im))
}

func (s *Server) listImports(c *gin.Context) {
	before, limit, ok := s.pageOf(c, 20)
	if !ok {
		return
	}
	list, next, err := s.imports.List(c.Request.Context(), workspaceID(c), before, limit)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := make([]importAnswer, len(list))
	for i, im := range list {
		out[i] = answerImport(im)
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, gin.H{"imports": out, "next_cursor": cursor(next), "max_bytes": s.maxImport, "max_rows": s.imports.MaxRows()})
}

// importResults streams one line per row of a finished import: its number, the line it starts
// on, its url, and the short URL made or the error.
func (s *Server) importResults(c *gin.Context) {
	id, ok := s.pathID(c, "id", "import")
	if !ok {
		return
	}
	ctx := c.Request.Context()
	ws := workspaceID(c)
	_, rows, err := s.imports.Results(ctx, ws, id)
	if err != nil {
		s.fail(c, err)
		return
	}
	header := []string{"row", "line", "url", "short_url", "error_code", "error", "error_reason"}
	streamCSV(s, c, fmt.Sprintf("import-%d-results.csv", id), header, rows, func(r imports.Result, rec []string) {
		rec[0], rec[1], rec[2] = strconv.Itoa(r.Row), strconv.Itoa(r.Line), csvCell(r.URL)
		rec[3], rec[4], rec[5], rec[6] = csvCell(r.ShortURL), r.ErrorCode, csvCell(r.Error), r.ErrorReason
	})
}
