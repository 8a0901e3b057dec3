package checker

// The package's tests run small models, whose levels are narrower than parallelLevel
// and parallelMerge; sharing every level and every merge keeps them on the parallel
// path (the shared table, key lowering, merges in parts) that large searches take.
// TestNarrowLevelsOneWorker checks the level threshold itself.
func init() { parallelLevel, parallelMerge = 1, 1 }
