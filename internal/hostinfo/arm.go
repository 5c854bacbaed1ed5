package hostinfo

import (
	"strconv"
	"strings"
)

// Arm CPUs have no "model name" in /proc/cpuinfo, only the implementer and part
// numbers of their MIDR register; these name the ones an HPC machine is likely to
// have, as lscpu does (util-linux's lscpu-arm.c).
var armImplementers = map[uint64]string{
	0x41: "ARM", 0x42: "Broadcom", 0x43: "Cavium", 0x46: "Fujitsu", 0x48: "HiSilicon",
	0x4e: "NVIDIA", 0x50: "APM", 0x51: "Qualcomm", 0x53: "Samsung", 0x56: "Marvell",
	0x61: "Apple", 0x70: "Phytium", 0xc0: "Ampere",
}

var armParts = map[[2]uint64]string{
	{0x41, 0xd03}: "Cortex-A53", {0x41, 0xd05}: "Cortex-A55", {0x41, 0xd07}: "Cortex-A57",
	{0x41, 0xd08}: "Cortex-A72", {0x41, 0xd09}: "Cortex-A73", {0x41, 0xd0a}: "Cortex-A75",
	{0x41, 0xd0b}: "Cortex-A76", {0x41, 0xd0c}: "Neoverse-N1", {0x41, 0xd0d}: "Cortex-A77",
	{0x41, 0xd40}: "Neoverse-V1", {0x41, 0xd41}: "Cortex-A78", {0x41, 0xd49}: "Neoverse-N2",
	{0x41, 0xd4a}: "Neoverse-E1", {0x41, 0xd4f}: "Neoverse-V2", {0x41, 0xd84}: "Neoverse-V3",
	{0x41, 0xd8e}: "Neoverse-N3",
	{0x42, 0x516}: "ThunderX2", {0x43, 0x0af}: "ThunderX2-99xx", {0x46, 0x001}: "A64FX",
	{0x48, 0xd01}: "Kunpeng-920", {0xc0, 0xac3}: "Ampere-1", {0xc0, 0xac4}: "Ampere-1a",
}

// armModel names the first CPU of an Arm cpuinfo by its "CPU implementer" and "CPU
// part" ("ARM Neoverse-N1"); a part not in the table keeps its number ("ARM part
// 0xd99"), an implementer too ("implementer 0x99 part 0x123"); "" without both.
func armModel(cpuinfo string) string {
	var impl, part string
	for _, line := range strings.Split(cpuinfo, "\n") {
		if strings.TrimSpace(line) == "" && (impl != "" || part != "") {
			break // the first CPU's block ends: both come from the same CPU
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "CPU implementer":
			impl = strings.TrimSpace(v)
		case "CPU part":
			part = strings.TrimSpace(v)
		}
	}
	i, err1 := strconv.ParseUint(impl, 0, 32)
	p, err2 := strconv.ParseUint(part, 0, 32)
	if err1 != nil || err2 != nil {
		return ""
	}
	name, known := armImplementers[i]
	if !known {
		return "implementer " + hex(i) + " part " + hex(p)
	}
	if model, ok := armParts[[2]uint64{i, p}]; ok {
		return name + " " + model
	}
	return name + " part " + hex(p)
}

func hex(v uint64) string { return "0x" + strconv.FormatUint(v, 16) }
