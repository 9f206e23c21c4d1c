package api

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"text/tabwriter"
	"time"
)

// Cost growth: the rows whose answer reads a data volume (news, the feed,
// courses, videos) are measured again on a second database seeded at
// GrowthFactor times their volumes (news 100k items, feed 1M posts and 10M
// comments, courses 100k and 1M enrolments, videos 100k by default), with
// the same users, concurrency and rounds. A page of 20 must not cost more
// because the table behind it is larger: the real server's p99 at 10× may be
// at most MaxGrowth times its p99 at 1×. The floor's growth is printed
// beside it: when the floor grows too, the statement itself (its plan or an
// index) is what grows.

// GrowthFactor is how much larger the second data set is.
const GrowthFactor = 10

// MaxGrowth is the target: p99 at GrowthFactor× data ≤ MaxGrowth × p99 at 1×.
const MaxGrowth = 1.2

// GrowthRows are the rows measured at both volumes.
var GrowthRows = []string{"news list", "feed todos", "feed conexoes", "course list", "video list"}

// GrowthConfig is base scaled by GrowthFactor on the volumes the growth
// rows read, measuring only those of them base measured (rows).
// BENCH_API_GROWTH_COMMENTS overrides the feed's comment count (default
// GrowthFactor × base's, so each post keeps its share).
func GrowthConfig(base Config, measured []Row) Config {
	c := base
	c.NewsItems *= GrowthFactor
	c.FeedPosts *= GrowthFactor
	c.FeedComments *= GrowthFactor
	if n, err := strconv.Atoi(os.Getenv("BENCH_API_GROWTH_COMMENTS")); err == nil && n > 0 {
		c.FeedComments = n
	}
	c.Courses *= GrowthFactor
	c.CourseEnrols *= GrowthFactor
	c.Videos *= GrowthFactor
	c.Rows = []string{}
	for _, r := range measured {
		if slices.Contains(GrowthRows, r.Endpoint.Name) {
			c.Rows = append(c.Rows, r.Endpoint.Name)
		}
	}
	return c
}

// GrowthReport pairs the 1× rows with the same rows at GrowthFactor×.
type GrowthReport struct {
	Base, Grown Report
}

// growth is row name's p99 at GrowthFactor× over its p99 at 1×, real and floor.
func (g GrowthReport) growth(name string) (real, floor float64, ok bool) {
	var base, grown *Row
	for i := range g.Base.Rows {
		if g.Base.Rows[i].Endpoint.Name == name {
			base = &g.Base.Rows[i]
		}
	}
	for i := range g.Grown.Rows {
		if g.Grown.Rows[i].Endpoint.Name == name {
			grown = &g.Grown.Rows[i]
		}
	}
	if base == nil || grown == nil || base.Real.Quantile(0.99) == 0 || base.Floor.Quantile(0.99) == 0 {
		return 0, 0, false
	}
	return float64(grown.Real.Quantile(0.99)) / float64(base.Real.Quantile(0.99)),
		float64(grown.Floor.Quantile(0.99)) / float64(base.Floor.Quantile(0.99)), true
}

// Print writes the growth table: both volumes' p99s and their ratios.
func (g GrowthReport) Print(w io.Writer) {
	c := g.Grown.Config
	fmt.Fprintf(w, "\nbench-api cost growth: the same rows on %d× the data (news %d, posts %d, comments %d, courses %d, enrolments %d, videos %d)\n\n",
		GrowthFactor, c.NewsItems, c.FeedPosts, c.FeedComments, c.Courses, c.CourseEnrols, c.Videos)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "endpoint\treal p99 1×\treal p99 10×\treal growth\tfloor p99 1×\tfloor p99 10×\tfloor growth\treal req/s 10× / floor\ttarget\tmet?\t")
	ms := func(d time.Duration) string { return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) }
	for _, gr := range g.Grown.Rows {
		var base Row
		for _, b := range g.Base.Rows {
			if b.Endpoint.Name == gr.Endpoint.Name {
				base = b
			}
		}
		real, floor, ok := g.growth(gr.Endpoint.Name)
		met := "no"
		if ok && real <= MaxGrowth {
			met = "yes"
		}
		rps := 0.0
		if gr.Floor.RPS() > 0 {
			rps = gr.Real.RPS() / gr.Floor.RPS()
		}
		fmt.Fprintf(tw, "%s %s\t%s ms\t%s ms\t%.2f×\t%s ms\t%s ms\t%.2f×\t%.0f %%\t≤%g×\t%s\t\n",
			gr.Endpoint.Method, gr.Endpoint.Path, ms(base.Real.Quantile(0.99)), ms(gr.Real.Quantile(0.99)), real,
			ms(base.Floor.Quantile(0.99)), ms(gr.Floor.Quantile(0.99)), floor, rps*100, MaxGrowth, met)
	}
	tw.Flush()
	fmt.Fprintln(w)
}
