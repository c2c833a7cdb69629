# Use the system simde headers (Debian: libsimde-dev) so the WAMR build does not
# clone them. Machines without the headers fall back to cloning.
if(EXISTS "/usr/include/simde/wasm/simd128.h")
  set(FETCHCONTENT_SOURCE_DIR_SIMDE "/usr/include" CACHE PATH "")
endif()
