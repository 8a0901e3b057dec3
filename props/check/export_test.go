package check

// Internal judges and parsers, exported to the external tests.
var (
	Distributions  = judgeDistributions
	Formula        = judgeFormula
	ParseNodeList  = parseNodeList
	ParseSemantics = parseSemantics
	VerifySchedule = verifySchedule
	Worst          = worstVerdict
	Names          = algorithmNames
)
