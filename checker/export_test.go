package checker

// The package's tests run small models, whose levels are narrower than parallelLevel
// and parallelMerge and whose tables are smaller than committedFrom; sharing every level
// and every merge and committing tables from 4 KiB keeps them on the paths (the shared
// table, key lowering, merges in parts, growth side by side) that large searches take.
// TestNarrowLevelsOneWorker checks the level threshold itself.
func init() { parallelLevel, parallelMerge, committedFrom = 1, 1, 1<<12 }
