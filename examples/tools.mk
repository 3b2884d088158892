# examples/tools.mk: the tools' stamps, included by the experiment
# makefiles.  $(call stamp,TOOL) is the stamp of the file TOOL names (a
# variable's value: a path, or a bare name looked up on PATH as the
# recipes' shell will look it up; a name not found is not tracked and gives
# nothing): $(STAMPS)/NAME, the file's SHA-256, written when the makefile
# is read and rewritten only when the checksum changed.  A rule that runs a
# tool depends on the tool's stamp, so that a rebuilt tool makes what it
# wrote stale instead of silently up to date, and a relink that changed
# nothing reruns nothing: every program is relinked when libpmr.a changes,
# byte for byte the same unless its own code did.  The first run into an
# OUT without stamps remakes everything once.  A stamp holds the settings
# too that the makefile names in STAMP_SETTINGS (set before its stamps:
# MAX, MACHINE and the like, the values that change what its tools write),
# so that a run into an OUT that other settings made remakes what they
# made instead of leaving it silently up to date (icost-multisim.mk with
# MAX=60000 after MAX=50000 said "Nothing to be done").  The lists of
# traces and seeds are not settings: each file is named by its own; nor
# is a setting stamped on its own ($(call setting), below), which remakes
# only what depends on it.
# each makefile its own (an experiment's multisim part, icost-multisim.mk,
# writes into shotgun.mk's OUT with other settings)
STAMPS ?= $(OUT)/.tools/$(notdir $(firstword $(MAKEFILE_LIST)))
stamp = $(strip $(shell f=$$(command -v '$(firstword $(1))' 2>/dev/null) && \
	[ -f "$$f" ] || exit 0; s=$$(sha256sum < "$$f") || exit 0; \
	s="$$s $(STAMP_SETTINGS)"; \
	n='$(STAMPS)'/$$(basename "$$f"); mkdir -p '$(STAMPS)' || exit 0; \
	[ "$$(cat "$$n" 2>/dev/null)" = "$$s" ] || echo "$$s" > "$$n"; \
	echo "$$n"))
# $(call setting,NAME,VALUE): the stamp of a setting that changes what a
# tool writes (icost --issue): $(STAMPS)/NAME holds VALUE, rewritten only
# when it changed, so that another value remakes what depends on it.
setting = $(strip $(shell mkdir -p '$(STAMPS)' && n='$(STAMPS)/$(1)'; \
	[ "$$(cat "$$n" 2>/dev/null)" = '$(2)' ] || echo '$(2)' > "$$n"; \
	echo "$$n"))
