package helper

// FunctionShapePoint is one point of a piecewise-linear function.
type FunctionShapePoint struct {
	// Utilization is the argument.
	Utilization int64
	// Score is the value at Utilization.
	Score int64
}

// FunctionShape is a list of points with strictly increasing utilization.
type FunctionShape []FunctionShapePoint

// BuildBrokenLinearFunction returns f with f(p) = shape[0].Score below the
// first point, the last score above the last point, and integer linear
// interpolation (truncating toward zero, as upstream) between points.
func BuildBrokenLinearFunction(shape FunctionShape) func(int64) int64 {
	return func(p int64) int64 {
		for i := range shape {
			if p > shape[i].Utilization {
				continue
			}
			if i == 0 {
				return shape[0].Score
			}
			lo, hi := shape[i-1], shape[i]
			return lo.Score + (hi.Score-lo.Score)*(p-lo.Utilization)/(hi.Utilization-lo.Utilization)
		}
		return shape[len(shape)-1].Score
	}
}
