# Installation: `make install PREFIX=/usr/local [DESTDIR=/stage]` runs `cmake --install`.
#
#   include/csum.h, csum_version.h     the API (every header in include/)
#   lib/libcsum.so.1.0.0 (+ .so.1, .so)  shared library, SONAME libcsum.so.1
#   lib/libcsum.a                       static library (position-independent; not with
#                                       -DCSUM_INSTALL_STATIC=OFF)
#   bin/csum, share/man/man1/csum.1     the tool and its manual (with CSUM_BUILD_PROGRAMS)
#   lib/pkgconfig/csum.pc               pkg-config --cflags --libs csum
#   lib/cmake/csum/                     find_package(csum): csum::csum (shared library,
#                                       csumTargets*.cmake), csum::csum_static (static
#                                       library, csumStaticTargets*.cmake: a package that
#                                       leaves libcsum.a out, or ships it apart, does the same
#                                       with these files, and find_package still works)
#
# `make uninstall` (cmake/uninstall.cmake) removes the files CMake lists in the build tree's
# install_manifest.txt, and the directories this install created: install_dirs.cmake, written
# beside it, names those and the DESTDIR the install was staged under.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(CSUM_CMAKE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/csum)

# Every directory the rules below install into. Before the first file, each one and each of
# its parents that does not exist yet is noted, up to DESTDIR (the packager's): those are ours
# to remove, and no other (/usr/local/include, /usr/lib stay, however empty).
set(CSUM_INSTALL_DESTINATIONS ${CMAKE_INSTALL_INCLUDEDIR} ${CMAKE_INSTALL_LIBDIR}
    ${CMAKE_INSTALL_LIBDIR}/pkgconfig ${CSUM_CMAKE_PACKAGE_DIR})
if(CSUM_BUILD_PROGRAMS)
  list(APPEND CSUM_INSTALL_DESTINATIONS ${CMAKE_INSTALL_BINDIR} ${CMAKE_INSTALL_MANDIR}/man1)
endif()
install(CODE "set(CSUM_INSTALL_DESTINATIONS [==[${CSUM_INSTALL_DESTINATIONS}]==])")
install(CODE [==[
  set(CSUM_INSTALL_NEW_DIRS "")
  # Paths as make uninstall compares them: no doubled or trailing slashes (DESTDIR=/stage/).
  function(csum_install_normal_path var)
    set(path "${${var}}")
    if(NOT path STREQUAL "")
      cmake_path(NORMAL_PATH path)
      string(REGEX REPLACE "(.)/+$" "\\1" path "${path}")
    endif()
    set(${var} "${path}" PARENT_SCOPE)
  endfunction()
  set(CSUM_INSTALL_STAGE "$ENV{DESTDIR}")
  csum_install_normal_path(CSUM_INSTALL_STAGE)
  foreach(dir IN LISTS CSUM_INSTALL_DESTINATIONS)
    if(NOT IS_ABSOLUTE "${dir}")
      set(dir "${CMAKE_INSTALL_PREFIX}/${dir}")
    endif()
    set(dir "$ENV{DESTDIR}${dir}")
    csum_install_normal_path(dir)
    while(NOT EXISTS "${dir}" AND NOT IS_SYMLINK "${dir}" AND NOT dir STREQUAL CSUM_INSTALL_STAGE)
      list(APPEND CSUM_INSTALL_NEW_DIRS "${dir}")
      get_filename_component(parent "${dir}" DIRECTORY)
      if(parent STREQUAL dir)
        break()
      endif()
      set(dir "${parent}")
    endwhile()
  endforeach()
  list(REMOVE_DUPLICATES CSUM_INSTALL_NEW_DIRS)
]==])

target_include_directories(csum_shared INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_include_directories(csum_static INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
install(TARGETS csum_shared EXPORT csumTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(CSUM_INSTALL_STATIC)
  install(TARGETS csum_static EXPORT csumStaticTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
if(CSUM_BUILD_PROGRAMS)
  install(TARGETS csum RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/csum.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

# CMake package. The exported targets locate themselves relative to the installed files, so a
# prefix given at install time (cmake --install --prefix) or a moved tree still works.
# The static library's targets in their own file, which csumConfig.cmake reads if it is there:
# the imported targets' files must all exist, so one export set would make find_package fail
# wherever libcsum.a was left out.
install(EXPORT csumTargets NAMESPACE csum:: DESTINATION ${CSUM_CMAKE_PACKAGE_DIR})
if(CSUM_INSTALL_STATIC)
  install(EXPORT csumStaticTargets NAMESPACE csum:: DESTINATION ${CSUM_CMAKE_PACKAGE_DIR})
endif()
configure_package_config_file(cmake/csumConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/csumConfig.cmake
                              INSTALL_DESTINATION ${CSUM_CMAKE_PACKAGE_DIR})
# A 1.x library satisfies find_package(csum 1.y) for y <= x: the major version follows the ABI.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/csumConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/csumConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/csumConfigVersion.cmake
        DESTINATION ${CSUM_CMAKE_PACKAGE_DIR})

# pkg-config. Its paths must name the prefix actually installed to, which
# `cmake --install --prefix` may choose after configuration: so the template is configured in
# two steps. Now, everything but the prefix (CSUM_PC_PREFIX is replaced by the placeholder
# @CSUM_PC_INSTALL_PREFIX@); at install time, the prefix. pkg-config reads a path with spaces
# only with each space escaped ("\ "), and then hands it on escaped, as the shell words
# `cc $(shell pkg-config --cflags csum)` in a Makefile needs.
foreach(dir LIBDIR INCLUDEDIR)
  string(REPLACE " " "\\ " CSUM_PC_DIR "${CMAKE_INSTALL_${dir}}")
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(CSUM_PC_${dir} "${CSUM_PC_DIR}")
  else()
    set(CSUM_PC_${dir} "\${prefix}/${CSUM_PC_DIR}")
  endif()
endforeach()
set(CSUM_PC_PREFIX "@CSUM_PC_INSTALL_PREFIX@")
configure_file(cmake/csum.pc.in ${CMAKE_CURRENT_BINARY_DIR}/csum.pc.in @ONLY)
install(CODE "string(REPLACE \" \" \"\\\\ \" CSUM_PC_INSTALL_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
              configure_file(\"${CMAKE_CURRENT_BINARY_DIR}/csum.pc.in\"
                             \"${CMAKE_CURRENT_BINARY_DIR}/csum.pc\" @ONLY)")
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/csum.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# Last rule: what make uninstall needs besides install_manifest.txt (which CMake writes after it).
install(CODE "set(CSUM_INSTALL_RECORD [==[${CMAKE_BINARY_DIR}/install_dirs.cmake]==])")
install(CODE [==[
  file(WRITE "${CSUM_INSTALL_RECORD}"
       "# Written by make install, read by make uninstall (cmake/uninstall.cmake).\n"
       "set(CSUM_INSTALLED_DESTDIR [=[${CSUM_INSTALL_STAGE}]=])\n"
       "set(CSUM_INSTALLED_DIRS [=[${CSUM_INSTALL_NEW_DIRS}]=])\n")
]==])
# The same from the build tool (`cmake --build build --target uninstall`), as top-level project
# only: a project that adds csum may have an uninstall target of its own.
if(CSUM_TOP_LEVEL)
  add_custom_target(uninstall COMMAND ${CMAKE_COMMAND} -DCSUM_BUILD_DIR=${CMAKE_BINARY_DIR}
                    -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/uninstall.cmake VERBATIM)
endif()
