# csum_dependency_option(NAME "what it is for"): a cache option AUTO (the default: use the
# dependency when it is found), ON (require it: configuring fails without it) or OFF (never look
# for it); NAME_MODE is then AUTO, ON or OFF, whatever CMake boolean spelling was given.
# A distribution sets each one ON or OFF, so that what happens to be installed on the build
# machine does not decide, unseen, what its package contains.
function(csum_dependency_option name doc)
  set(${name} AUTO CACHE STRING "${doc}: AUTO (if found), ON (required) or OFF")
  set_property(CACHE ${name} PROPERTY STRINGS AUTO ON OFF)
  string(TOUPPER "${${name}}" value)
  if(value STREQUAL "AUTO")
    set(${name}_MODE AUTO PARENT_SCOPE)
  elseif(value MATCHES "^(ON|YES|TRUE|Y|1|OFF|NO|FALSE|N|0)$")
    if(${name}) # a boolean: ON or OFF
      set(${name}_MODE ON PARENT_SCOPE)
    else()
      set(${name}_MODE OFF PARENT_SCOPE)
    endif()
  else()
    message(FATAL_ERROR "${name}=${${name}}: want AUTO, ON or OFF")
  endif()
endfunction()

# csum_dependency_usable(NAME RESULT SOURCE [FLAGS flags...] [LIBRARIES libs...]): whether the
# compiler in use builds and links SOURCE against a dependency that was found. Found is not
# usable: find_package and pkg-config look in the host's directories, whatever the compiler,
# so with musl-gcc (Debian's musl-tools) or another C library's toolchain they name glibc's
# headers and libraries, which that compiler cannot use, and the build would fail far later.
# RESULT is set TRUE or FALSE in the caller's scope (cached under CSUM_USABLE_<NAME>).
function(csum_dependency_usable name result source)
  cmake_parse_arguments(arg "" "" "FLAGS;LIBRARIES" ${ARGN})
  include(CheckCSourceCompiles)
  set(CMAKE_REQUIRED_QUIET ON)
  set(CMAKE_REQUIRED_LIBRARIES ${arg_LIBRARIES})
  list(JOIN arg_FLAGS " " CMAKE_REQUIRED_FLAGS)
  check_c_source_compiles("${source}" CSUM_USABLE_${name})
  if(CSUM_USABLE_${name})
    set(${result} TRUE PARENT_SCOPE)
  else()
    set(${result} FALSE PARENT_SCOPE)
  endif()
endfunction()
