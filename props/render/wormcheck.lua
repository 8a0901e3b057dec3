-- Wireshark/tshark dissector for the pcap captures wormcheck writes.
--
--   tshark -X lua_script:wormcheck.lua -r trace.pcap -V
--   (or copy it into Wireshark's personal plugins folder)
--
-- One link type per record layout (model/flitwire, model/banyanwire):
--   LINKTYPE_USER0 (147): flit-level traces (check --pcap, replay, prove --witness-dir):
--                         a Crossing header, then a Flit (next = 1) or a Message
--                         announcement (next = 2). Step = (timestamp - 2000-01-01) in us.
--   LINKTYPE_USER1 (148): banyan captures: a region header (002 S2.2), then packet and
--                         channel. Cycle = (timestamp - 2000-01-01) in us.
--   LINKTYPE_USER2 (149): simulator flit moves (sim --trace): a network record
--                         (version 2), then one record per move (version 1).
--   (LINKTYPE_USER3 (150) is fabric --pcap: InfiniBand packets for Wireshark's own
--   InfiniBand dissector, tshark -o 'uat:user_dlts:"User 3 (DLT=150)","infiniband","0","","0",""'.)
-- All integers are big-endian. Written by `wormcheck dissector`; the layouts are
-- documented in model/flitwire and model/banyanwire.
--
-- Nodes are shown by their coordinates, as wormcheck's text output names them ((3,4) on
-- a mesh or torus, 0110 on a hypercube): a flit-level capture names its network in its
-- first record (next layer 3), a simulator capture in its first record (version 2), so
-- no option is needed. The preference
-- wormcheck.topology overrides it (`tshark -o wormcheck.topology:mesh:8x8 ...`, or
-- `wormcheck dissector --topo mesh:8x8`, which makes it the default) and names the
-- network of a capture written before the record existed. Without either, nodes are
-- shown by number.

local EPOCH = 946684800 -- 2000-01-01T00:00:00Z, the timestamp of step 0

-- TOPOLOGY is the default of the topology preference (set by wormcheck dissector --topo).
local TOPOLOGY = ""

-- topo_of parses a topology spec into {kind, sizes} (mesh, torus: sizes per dimension,
-- dimension 0 first; hypercube: its dimension), nil for one without coordinates.
local topo_cache = {}
local function topo_of(spec)
	if spec == nil or spec == "" then
		return nil
	end
	if topo_cache[spec] ~= nil then
		return topo_cache[spec] or nil
	end
	local t = false
	local kind, rest = spec:match("^(%a+):([%dx]+)$")
	if kind == "mesh" or kind == "torus" then
		local sizes = {}
		for n in rest:gmatch("%d+") do
			sizes[#sizes + 1] = tonumber(n)
		end
		t = { kind = kind, sizes = sizes }
	elseif kind == "hypercube" and tonumber(rest) then
		t = { kind = kind, dims = tonumber(rest) }
	end
	topo_cache[spec] = t
	return t or nil
end

-- node_name names node id v as wormcheck does (model.Grid.NodeName): "(x,y,...)" with
-- dimension 0 varying fastest, a hypercube node in binary; nil without a topology or
-- for an id beyond it.
local function node_name(spec, v)
	local t = topo_of(spec)
	if t == nil then
		return nil
	end
	if t.kind == "hypercube" then
		if v >= 2 ^ t.dims then
			return nil
		end
		local bits = {}
		for d = t.dims - 1, 0, -1 do
			bits[#bits + 1] = tostring(math.floor(v / 2 ^ d) % 2)
		end
		return table.concat(bits)
	end
	local coords, rest = {}, v
	for _, k in ipairs(t.sizes) do
		coords[#coords + 1] = tostring(rest % k)
		rest = math.floor(rest / k)
	end
	if rest ~= 0 then
		return nil
	end
	return "(" .. table.concat(coords, ",") .. ")"
end

local function step_of(pinfo, base)
	local t = pinfo.abs_ts - base
	return math.floor(t * 1000000 + 0.5)
end

------------------------------------------------------------------------------------
-- Flit-level traces (LINKTYPE_USER0)
------------------------------------------------------------------------------------
local flit_proto = Proto("wormcheck", "wormcheck flit-level trace")

local NEXT = { [1] = "flit", [2] = "message", [3] = "network" }
local KIND = { [1] = "address", [2] = "data", [3] = "tail" }
local NO_CHANNEL = 0xFFFFFFFF

local f = {
	step      = ProtoField.uint32("wormcheck.step", "Step"),
	version   = ProtoField.uint8("wormcheck.crossing.version", "Crossing version"),
	next      = ProtoField.uint8("wormcheck.crossing.next", "Next layer", base.DEC, NEXT),
	reserved  = ProtoField.uint16("wormcheck.crossing.reserved", "Reserved"),
	channel   = ProtoField.uint32("wormcheck.crossing.channel", "Channel"),
	from      = ProtoField.uint32("wormcheck.crossing.from", "From node"),
	to        = ProtoField.uint32("wormcheck.crossing.to", "To node"),
	kind      = ProtoField.uint8("wormcheck.flit.kind", "Flit kind", base.DEC, KIND),
	flags     = ProtoField.uint8("wormcheck.flit.flags", "Flags", base.HEX),
	first     = ProtoField.bool("wormcheck.flit.first", "First (header)", 8, nil, 0x01),
	last      = ProtoField.bool("wormcheck.flit.last", "Last (releases the channels)", 8, nil, 0x02),
	vc        = ProtoField.uint8("wormcheck.flit.vc", "Virtual channel"),
	freserved = ProtoField.uint8("wormcheck.flit.reserved", "Reserved"),
	message   = ProtoField.uint16("wormcheck.flit.message", "Message"),
	word      = ProtoField.uint32("wormcheck.flit.word", "Word"),
	dest      = ProtoField.uint32("wormcheck.flit.destination", "Destination node"),
	index     = ProtoField.uint32("wormcheck.flit.data_index", "Data index"),
	data      = ProtoField.bytes("wormcheck.flit.data", "Data"),
	msg_id    = ProtoField.uint16("wormcheck.message.id", "Message"),
	msg_src   = ProtoField.uint32("wormcheck.message.source", "Source node"),
	msg_data  = ProtoField.uint16("wormcheck.message.data_flits", "Data flits"),
	msg_n     = ProtoField.uint16("wormcheck.message.destinations", "Destinations"),
	msg_dest  = ProtoField.uint32("wormcheck.message.destination", "Destination node"),
	network   = ProtoField.string("wormcheck.network", "Network"),
}
flit_proto.fields = {
	f.step, f.version, f.next, f.reserved, f.channel, f.from, f.to,
	f.kind, f.flags, f.first, f.last, f.vc, f.freserved, f.message, f.word, f.dest, f.index, f.data,
	f.msg_id, f.msg_src, f.msg_data, f.msg_n, f.msg_dest, f.network,
}
local e_short = ProtoExpert.new("wormcheck.short", "record is truncated", expert.group.MALFORMED, expert.severity.ERROR)
local e_field = ProtoExpert.new("wormcheck.bad", "field value is invalid", expert.group.MALFORMED, expert.severity.ERROR)
flit_proto.experts = { e_short, e_field }
flit_proto.prefs.topology = Pref.string("Topology", TOPOLOGY,
	"the capture's network as wormcheck names it (mesh:8x8, torus:4x4x4, hypercube:6): nodes are shown by coordinates")

-- capture_topology is the network the capture's network record names ("" before one is
-- read); a new capture starts without one.
local capture_topology = ""
function flit_proto.init()
	capture_topology = ""
end

-- topology_spec is the network nodes are named on: the preference when set, else the
-- capture's own.
local function topology_spec()
	if flit_proto.prefs.topology ~= "" then
		return flit_proto.prefs.topology
	end
	return capture_topology
end

-- named returns " (name)" for node v under the capture's topology, "" without one.
local function named(v)
	local n = node_name(topology_spec(), v)
	if n == nil then
		return ""
	end
	return " " .. n
end

-- node_text is node v as the Info column shows it: its name, else its number.
local function node_text(v)
	return node_name(topology_spec(), v) or tostring(v)
end

function flit_proto.dissector(buf, pinfo, tree)
	pinfo.cols.protocol = "wormcheck"
	local root = tree:add(flit_proto, buf(), "wormcheck flit-level trace record")
	root:add(f.step, step_of(pinfo, EPOCH)):set_generated()
	if buf:len() < 16 then
		root:add_proto_expert_info(e_short, "crossing header needs 16 bytes")
		return
	end
	local cr = root:add(buf(0, 16), "Crossing")
	cr:add(f.version, buf(0, 1))
	local next = buf(1, 1):uint()
	cr:add(f.next, buf(1, 1))
	cr:add(f.reserved, buf(2, 2))
	local channel = buf(4, 4):uint()
	local ct = cr:add(f.channel, buf(4, 4))
	if channel == NO_CHANNEL and next == 3 then
		ct:append_text(" (none: the network record)")
	elseif channel == NO_CHANNEL then
		ct:append_text(" (none: a message announcement)")
	end
	local from, to = buf(8, 4):uint(), buf(12, 4):uint()
	cr:add(f.from, buf(8, 4)):append_text(named(from))
	cr:add(f.to, buf(12, 4)):append_text(named(to))
	if channel ~= NO_CHANNEL and node_name(topology_spec(), from) ~= nil then
		if from == to then
			ct:append_text(" (the ejection channel at " .. node_text(from) .. ")")
		else
			ct:append_text(" (" .. node_text(from) .. "->" .. node_text(to) .. ")")
		end
	end
	if next == 1 then
		if buf:len() < 26 then
			root:add_proto_expert_info(e_short, "flit header needs 10 bytes")
			return
		end
		local fl = root:add(buf(16, 10), "Flit")
		local kind = buf(16, 1):uint()
		fl:add(f.kind, buf(16, 1))
		local ft = fl:add(f.flags, buf(17, 1))
		ft:add(f.first, buf(17, 1))
		ft:add(f.last, buf(17, 1))
		fl:add(f.vc, buf(18, 1))
		fl:add(f.freserved, buf(19, 1))
		local msg = buf(20, 2):uint()
		fl:add(f.message, buf(20, 2))
		fl:add(f.word, buf(22, 4))
		if kind == 1 then
			fl:add(f.dest, buf(22, 4)):append_text(named(buf(22, 4):uint()))
		elseif kind == 2 then
			fl:add(f.index, buf(22, 4))
		elseif kind ~= 3 then
			fl:add_proto_expert_info(e_field, "unknown flit kind " .. kind)
		end
		if buf:len() > 26 then
			fl:add(f.data, buf(26))
		end
		local where = "ch " .. channel .. " " .. node_text(from) .. "->" .. node_text(to)
		if channel == NO_CHANNEL then
			where = "?"
		elseif from == to then
			where = "ejected at " .. node_text(from)
		end
		pinfo.cols.info = string.format("m%d %s flit %s vc%d", msg, KIND[kind] or "?", where, buf(18, 1):uint())
	elseif next == 2 then
		if buf:len() < 26 then
			root:add_proto_expert_info(e_short, "message header needs 10 bytes")
			return
		end
		local n = buf(24, 2):uint()
		local m = root:add(buf(16), "Message")
		m:add(f.msg_id, buf(16, 2))
		m:add(f.msg_src, buf(18, 4)):append_text(named(buf(18, 4):uint()))
		m:add(f.msg_data, buf(22, 2))
		m:add(f.msg_n, buf(24, 2))
		local dests = {}
		for i = 0, n - 1 do
			local off = 26 + 4 * i
			if off + 4 > buf:len() then
				m:add_proto_expert_info(e_short, "destination list is truncated")
				break
			end
			m:add(f.msg_dest, buf(off, 4)):append_text(named(buf(off, 4):uint()))
			dests[#dests + 1] = node_text(buf(off, 4):uint())
		end
		pinfo.cols.info = string.format("m%d from %s to %s, %d data flits", buf(16, 2):uint(), node_text(buf(18, 4):uint()),
			table.concat(dests, ","), buf(22, 2):uint())
	elseif next == 3 then
		if buf:len() <= 16 then
			root:add_proto_expert_info(e_short, "a network record names its topology")
			return
		end
		local spec = buf(16):string()
		capture_topology = spec
		root:add(f.network, buf(16))
		pinfo.cols.info = "network " .. spec
	else
		cr:add_proto_expert_info(e_field, "unknown next layer " .. next)
	end
end

------------------------------------------------------------------------------------
-- Banyan captures (LINKTYPE_USER1)
------------------------------------------------------------------------------------
local banyan_proto = Proto("wormcheck_banyan", "wormcheck banyan region header")
local b = {
	cycle     = ProtoField.uint32("wormcheck_banyan.cycle", "Cycle"),
	version   = ProtoField.uint8("wormcheck_banyan.version", "Version", base.DEC, nil, 0xF0),
	multicast = ProtoField.bool("wormcheck_banyan.region", "Region (multicast)", 8, nil, 0x01),
	stages    = ProtoField.uint8("wormcheck_banyan.stages", "Stages"),
	min       = ProtoField.uint16("wormcheck_banyan.min", "Region min"),
	max       = ProtoField.uint16("wormcheck_banyan.max", "Region max"),
	packet    = ProtoField.uint16("wormcheck_banyan.packet", "Packet"),
	channel   = ProtoField.uint32("wormcheck_banyan.channel", "Channel"),
}
banyan_proto.fields = { b.cycle, b.version, b.multicast, b.stages, b.min, b.max, b.packet, b.channel }

function banyan_proto.dissector(buf, pinfo, tree)
	pinfo.cols.protocol = "wormcheck-banyan"
	local root = tree:add(banyan_proto, buf(), "wormcheck banyan record")
	root:add(b.cycle, step_of(pinfo, EPOCH)):set_generated()
	if buf:len() < 12 then
		root:add_proto_expert_info(e_short, "a banyan record has 12 bytes")
		return
	end
	local h = root:add(buf(0, 6), "Region header")
	h:add(b.version, buf(0, 1))
	h:add(b.multicast, buf(0, 1))
	h:add(b.stages, buf(1, 1))
	h:add(b.min, buf(2, 2))
	h:add(b.max, buf(4, 2))
	root:add(b.packet, buf(6, 2))
	root:add(b.channel, buf(8, 4))
	pinfo.cols.info = string.format("packet %d on channel %d, region [%d,%d] of 2^%d", buf(6, 2):uint(),
		buf(8, 4):uint(), buf(2, 2):uint(), buf(4, 2):uint(), buf(1, 1):uint())
end

------------------------------------------------------------------------------------
-- Simulator flit moves (LINKTYPE_USER2)
------------------------------------------------------------------------------------
local sim_proto = Proto("wormcheck_sim", "wormcheck simulator flit move")
local s = {
	version  = ProtoField.uint8("wormcheck_sim.version", "Version"),
	flags    = ProtoField.uint8("wormcheck_sim.flags", "Flags", base.HEX),
	head     = ProtoField.bool("wormcheck_sim.head", "Head flit", 8, nil, 0x01),
	tail     = ProtoField.bool("wormcheck_sim.tail", "Tail flit", 8, nil, 0x02),
	delivery = ProtoField.bool("wormcheck_sim.delivery", "Delivery", 8, nil, 0x04),
	vc       = ProtoField.uint8("wormcheck_sim.vc", "Virtual channel"),
	reserved = ProtoField.uint8("wormcheck_sim.reserved", "Reserved"),
	cycle    = ProtoField.uint64("wormcheck_sim.cycle", "Cycle"),
	channel  = ProtoField.int32("wormcheck_sim.channel", "Channel", base.DEC),
	node     = ProtoField.uint32("wormcheck_sim.node", "Node"),
	worm     = ProtoField.uint32("wormcheck_sim.worm", "Worm"),
	msg      = ProtoField.uint32("wormcheck_sim.message", "Message or unicast"),
	network  = ProtoField.string("wormcheck_sim.network", "Network"),
}
sim_proto.fields = { s.version, s.flags, s.head, s.tail, s.delivery, s.vc, s.reserved, s.cycle, s.channel, s.node, s.worm, s.msg, s.network }

-- A capture's first record (version 2) names its network: the topology spec after four
-- bytes. Captures written before it existed start with a move (version 1).
function sim_proto.dissector(buf, pinfo, tree)
	pinfo.cols.protocol = "wormcheck-sim"
	if buf:len() > 0 and buf(0, 1):uint() == 2 then
		local root = tree:add(sim_proto, buf(), "wormcheck simulator network")
		root:add(s.version, buf(0, 1))
		if buf:len() <= 4 then
			root:add_proto_expert_info(e_short, "a network record names its topology")
			return
		end
		capture_topology = buf(4):string()
		root:add(s.network, buf(4))
		pinfo.cols.info = "network " .. capture_topology
		return
	end
	local root = tree:add(sim_proto, buf(), "wormcheck simulator flit move")
	if buf:len() < 28 then
		root:add_proto_expert_info(e_short, "a simulator record has 28 bytes")
		return
	end
	root:add(s.version, buf(0, 1))
	local ft = root:add(s.flags, buf(1, 1))
	ft:add(s.head, buf(1, 1))
	ft:add(s.tail, buf(1, 1))
	ft:add(s.delivery, buf(1, 1))
	root:add(s.vc, buf(2, 1))
	root:add(s.reserved, buf(3, 1))
	root:add(s.cycle, buf(4, 8))
	root:add(s.channel, buf(12, 4))
	root:add(s.node, buf(16, 4)):append_text(named(buf(16, 4):uint()))
	root:add(s.worm, buf(20, 4))
	root:add(s.msg, buf(24, 4))
	local what = "channel " .. buf(12, 4):int()
	if buf(12, 4):int() < 0 then
		what = "delivered"
	end
	pinfo.cols.info = string.format("cycle %s m%d worm %d %s at node %s", tostring(buf(4, 8):uint64()),
		buf(24, 4):uint(), buf(20, 4):uint(), what, node_text(buf(16, 4):uint()))
end

local encap = DissectorTable.get("wtap_encap")
encap:add(wtap_encaps.USER0, flit_proto)
encap:add(wtap_encaps.USER1, banyan_proto)
encap:add(wtap_encaps.USER2, sim_proto)
