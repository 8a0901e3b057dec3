// Package booksim reads BookSim2 configuration files: every key BookSim2 defines
// (src/booksim_config.cpp), typed, with BookSim's default wherever the file does not set
// it, and the keys BookSim does not know reported instead of dropped. Map turns a
// configuration into what wormcheck checks: a topology spec, a routing relation's name,
// virtual channels, buffer depth and packet length, with one line for each key that
// changes what BookSim simulates but not what wormcheck decides.
//
// The package only parses: it opens no file (the caller reads the configuration and
// passes the directory network_file is relative to).
package booksim

// Config is a BookSim2 configuration. Every field is one key of booksim_config.cpp (its
// tag names the key and BookSim's default); a key the file does not set has BookSim's
// default. Keys that BookSim reads per traffic class accept BookSim's vector syntax
// "{a,b}" and are slices (one element when the file gives one value); packet_size and
// packet_size_rate are a list of sizes per class ("{{1,2},{4}}").
type Config struct {
	Network    Network
	Router     Router
	Allocators Allocators
	Traffic    Traffic
	Sim        Simulation
	Power      Power

	// Set lists the keys the file sets, in the order it first sets them; Line[key] is
	// the line of the statement that set it last (BookSim keeps the last assignment).
	Set  []string
	Line map[string]int
	// Unknown lists the keys the file sets that BookSim does not define, in file order.
	// BookSim refuses such a file ("Unknown ... field"); wormcheck reports them.
	Unknown []string
}

// Seed is a seed key that BookSim also accepts as the word "time" (seed, perm_seed,
// fail_seed): Time is true for "time", else Value is the number.
type Seed struct {
	Value int
	Time  bool
}

// Network holds the topology keys.
type Network struct {
	Topology        string `booksim:"topology" default:"torus"`
	K               int    `booksim:"k" default:"8"` // radix: routers per dimension
	N               int    `booksim:"n" default:"2"` // dimensions (stages of a fly)
	C               int    `booksim:"c" default:"1"` // concentration: terminals per router
	RoutingFunction string `booksim:"routing_function" default:"none"`
	// X, Y, XR, YR lay out a concentrated network: X by Y routers, XR by YR terminals
	// per router (cmesh, flatfly); BookSim numbers terminals from them.
	X             int    `booksim:"x" default:"8"`
	Y             int    `booksim:"y" default:"8"`
	XR            int    `booksim:"xr" default:"1"`
	YR            int    `booksim:"yr" default:"1"`
	UseNocLatency int    `booksim:"use_noc_latency" default:"1"`
	NetworkFile   string `booksim:"network_file" default:""`
	ChannelFile   string `booksim:"channel_file" default:""`
	Subnets       int    `booksim:"subnets" default:"1"`
	LinkFailures  int    `booksim:"link_failures" default:"0"`
	FailSeed      Seed   `booksim:"fail_seed" default:"0"`
	InPorts       int    `booksim:"in_ports" default:"5"`
	OutPorts      int    `booksim:"out_ports" default:"5"`
}

// Router holds the router and flow-control keys.
type Router struct {
	Kind             string  `booksim:"router" default:"iq"`
	OutputDelay      int     `booksim:"output_delay" default:"0"`
	CreditDelay      int     `booksim:"credit_delay" default:"0"`
	InternalSpeedup  float64 `booksim:"internal_speedup" default:"1.0"`
	OutputBufferSize int     `booksim:"output_buffer_size" default:"-1"`
	NOQ              bool    `booksim:"noq" default:"0"`

	Speculative     int    `booksim:"speculative" default:"0"`
	SpecCheckElig   bool   `booksim:"spec_check_elig" default:"1"`
	SpecCheckCred   bool   `booksim:"spec_check_cred" default:"1"`
	SpecMaskByReqs  bool   `booksim:"spec_mask_by_reqs" default:"0"`
	SpecSwAllocator string `booksim:"spec_sw_allocator" default:"prio"`

	NumVCs            int    `booksim:"num_vcs" default:"16"`
	VCBufSize         int    `booksim:"vc_buf_size" default:"8"`
	BufSize           int    `booksim:"buf_size" default:"-1"` // shared buffer; -1: private buffers of vc_buf_size
	BufferPolicy      string `booksim:"buffer_policy" default:"private"`
	PrivateBufs       int    `booksim:"private_bufs" default:"-1"`
	PrivateBufSize    []int  `booksim:"private_buf_size" default:"1"`
	PrivateBufStartVC []int  `booksim:"private_buf_start_vc" default:"-1"`
	PrivateBufEndVC   []int  `booksim:"private_buf_end_vc" default:"-1"`
	MaxHeldSlots      int    `booksim:"max_held_slots" default:"-1"`

	FeedbackAgingScale int `booksim:"feedback_aging_scale" default:"1"`
	FeedbackOffset     int `booksim:"feedback_offset" default:"0"`

	// WaitForTailCredit: a VC is reallocated only after its tail's credit returns
	// (atomic VC allocation); 0 reallocates it once the tail has been sent.
	WaitForTailCredit   bool `booksim:"wait_for_tail_credit" default:"0"`
	VCBusyWhenFull      bool `booksim:"vc_busy_when_full" default:"0"`
	VCPrioritizeEmpty   bool `booksim:"vc_prioritize_empty" default:"0"`
	VCPriorityDonation  bool `booksim:"vc_priority_donation" default:"0"`
	VCShuffleRequests   bool `booksim:"vc_shuffle_requests" default:"0"`
	HoldSwitchForPacket bool `booksim:"hold_switch_for_packet" default:"0"`

	InputSpeedup   int `booksim:"input_speedup" default:"1"`
	OutputSpeedup  int `booksim:"output_speedup" default:"1"`
	RoutingDelay   int `booksim:"routing_delay" default:"1"` // 0: lookahead routing
	VCAllocDelay   int `booksim:"vc_alloc_delay" default:"1"`
	SWAllocDelay   int `booksim:"sw_alloc_delay" default:"1"`
	STPrepareDelay int `booksim:"st_prepare_delay" default:"0"`
	STFinalDelay   int `booksim:"st_final_delay" default:"1"`

	VCT bool `booksim:"vct" default:"0"` // virtual cut-through (event router)
}

// Allocators holds the allocator and arbiter keys.
type Allocators struct {
	VCAllocator string `booksim:"vc_allocator" default:"islip"`
	SWAllocator string `booksim:"sw_allocator" default:"islip"`
	ArbType     string `booksim:"arb_type" default:"round_robin"`
	AllocIters  int    `booksim:"alloc_iters" default:"1"`
}

// Traffic holds the traffic keys. The slices are per traffic class; BookSim repeats a
// list's last element for the classes it does not cover.
type Traffic struct {
	Classes       int      `booksim:"classes" default:"1"`
	Pattern       []string `booksim:"traffic" default:"uniform"`
	ClassPriority []int    `booksim:"class_priority" default:"0"`
	PermSeed      Seed     `booksim:"perm_seed" default:"0"`

	InjectionRate          []float64 `booksim:"injection_rate" default:"0.1"`
	InjectionRateUsesFlits bool      `booksim:"injection_rate_uses_flits" default:"0"`
	PacketSize             [][]int   `booksim:"packet_size" default:"1"`
	PacketSizeRate         [][]int   `booksim:"packet_size_rate" default:"1"`
	InjectionProcess       []string  `booksim:"injection_process" default:"bernoulli"`
	BurstAlpha             float64   `booksim:"burst_alpha" default:"0.5"`
	BurstBeta              float64   `booksim:"burst_beta" default:"0.5"`
	BurstR1                float64   `booksim:"burst_r1" default:"-1.0"`

	Priority               string `booksim:"priority" default:"none"`
	BatchSize              int    `booksim:"batch_size" default:"1000"`
	BatchCount             int    `booksim:"batch_count" default:"1"`
	MaxOutstandingRequests int    `booksim:"max_outstanding_requests" default:"0"`

	// UseReadWrite sends read/write requests and their replies, each kind on its own
	// range of VCs and with its own size.
	UseReadWrite  []int     `booksim:"use_read_write" default:"0"`
	WriteFraction []float64 `booksim:"write_fraction" default:"0.5"`

	ReadRequestBeginVC  int `booksim:"read_request_begin_vc" default:"0"`
	ReadRequestEndVC    int `booksim:"read_request_end_vc" default:"5"`
	WriteRequestBeginVC int `booksim:"write_request_begin_vc" default:"2"`
	WriteRequestEndVC   int `booksim:"write_request_end_vc" default:"7"`
	ReadReplyBeginVC    int `booksim:"read_reply_begin_vc" default:"8"`
	ReadReplyEndVC      int `booksim:"read_reply_end_vc" default:"13"`
	WriteReplyBeginVC   int `booksim:"write_reply_begin_vc" default:"10"`
	WriteReplyEndVC     int `booksim:"write_reply_end_vc" default:"15"`

	ReadRequestSubnet  int `booksim:"read_request_subnet" default:"0"`
	ReadReplySubnet    int `booksim:"read_reply_subnet" default:"0"`
	WriteRequestSubnet int `booksim:"write_request_subnet" default:"0"`
	WriteReplySubnet   int `booksim:"write_reply_subnet" default:"0"`

	ReadRequestSize  []int `booksim:"read_request_size" default:"1"`
	WriteRequestSize []int `booksim:"write_request_size" default:"1"`
	ReadReplySize    []int `booksim:"read_reply_size" default:"1"`
	WriteReplySize   []int `booksim:"write_reply_size" default:"1"`
}

// Simulation holds the keys of BookSim's measurement loop and its outputs.
type Simulation struct {
	Type          string `booksim:"sim_type" default:"latency"` // latency, throughput or batch
	WarmupPeriods int    `booksim:"warmup_periods" default:"3"`
	SamplePeriod  int    `booksim:"sample_period" default:"1000"`
	MaxSamples    int    `booksim:"max_samples" default:"10"`
	MeasureStats  []int  `booksim:"measure_stats" default:"1"`
	PairStats     bool   `booksim:"pair_stats" default:"0"`

	LatencyThres     []float64 `booksim:"latency_thres" default:"500.0"`
	WarmupThres      []float64 `booksim:"warmup_thres" default:"0.05"`
	AccWarmupThres   []float64 `booksim:"acc_warmup_thres" default:"0.05"`
	StoppingThres    []float64 `booksim:"stopping_thres" default:"0.05"`
	AccStoppingThres []float64 `booksim:"acc_stopping_thres" default:"0.05"`

	SimCount       int  `booksim:"sim_count" default:"1"`
	IncludeQueuing bool `booksim:"include_queuing" default:"1"`
	Seed           Seed `booksim:"seed" default:"0"`

	PrintActivity       bool `booksim:"print_activity" default:"0"`
	PrintCSVResults     bool `booksim:"print_csv_results" default:"0"`
	DeadlockWarnTimeout int  `booksim:"deadlock_warn_timeout" default:"256"`
	ViewerTrace         bool `booksim:"viewer_trace" default:"0"`

	WatchFile         string `booksim:"watch_file" default:""`
	WatchFlits        []int  `booksim:"watch_flits" default:""`
	WatchPackets      []int  `booksim:"watch_packets" default:""`
	WatchTransactions string `booksim:"watch_transactions" default:""`
	WatchOut          string `booksim:"watch_out" default:""`
	StatsOut          string `booksim:"stats_out" default:""`
	SentPacketsOut    string `booksim:"sent_packets_out" default:""`
}

// Power holds the keys of BookSim's power model.
type Power struct {
	SimPower        bool   `booksim:"sim_power" default:"0"`
	PowerOutputFile string `booksim:"power_output_file" default:"pwr_tmp"`
	TechFile        string `booksim:"tech_file" default:""`
	ChannelWidth    int    `booksim:"channel_width" default:"128"`
	ChannelSweep    bool   `booksim:"channel_sweep" default:"0"`
}
