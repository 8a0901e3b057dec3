package checker

// The package's tests run small models, whose levels are narrower than parallelLevel;
// sharing every level keeps them on the parallel path (the shared table, key lowering, merged lists)
// that large searches take. TestNarrowLevelsOneWorker checks the threshold itself.
func init() { parallelLevel = 1 }
