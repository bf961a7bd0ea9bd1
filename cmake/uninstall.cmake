# make uninstall: removes what the last `make install` from this build tree installed.
#   cmake -DCSUM_BUILD_DIR=build -P cmake/uninstall.cmake    (DESTDIR from the environment)
# The files are those CMake listed in BUILD/install_manifest.txt (without DESTDIR), the
# directories those the install created (BUILD/install_dirs.cmake, cmake/install.cmake), each
# removed only once empty. The DESTDIR must be the install's: the manifest's paths without
# the staging root would name the system's own files. Both lists are removed at the end, so a
# second run says there is nothing to uninstall.
if(NOT CSUM_BUILD_DIR)
  message(FATAL_ERROR "usage: cmake -DCSUM_BUILD_DIR=<build dir> -P cmake/uninstall.cmake")
endif()
set(manifest "${CSUM_BUILD_DIR}/install_manifest.txt")
set(record "${CSUM_BUILD_DIR}/install_dirs.cmake")
if(NOT EXISTS "${manifest}")
  message("make uninstall: nothing to uninstall: ${manifest} does not exist "
          "(nothing was installed from this build tree, or it was uninstalled already)")
  return()
endif()

# DESTDIR as the install noted it: no doubled or trailing slashes.
set(destdir "$ENV{DESTDIR}")
if(NOT destdir STREQUAL "")
  cmake_path(NORMAL_PATH destdir)
  string(REGEX REPLACE "(.)/+$" "\\1" destdir "${destdir}")
endif()
set(CSUM_INSTALLED_DIRS "")
if(EXISTS "${record}")
  include("${record}")
  if(NOT destdir STREQUAL CSUM_INSTALLED_DESTDIR)
    if(CSUM_INSTALLED_DESTDIR STREQUAL "")
      set(was "not staged (no DESTDIR)")
    else()
      set(was "staged under DESTDIR=${CSUM_INSTALLED_DESTDIR}")
    endif()
    message(FATAL_ERROR "make uninstall: the last make install from ${CSUM_BUILD_DIR} was "
            "${was}: give make uninstall the same DESTDIR (now '${destdir}')")
  endif()
else()
  message(WARNING "make uninstall: ${record} is missing (installed by an older csum?): "
          "removing the files only, under DESTDIR='${destdir}'")
endif()

file(STRINGS "${manifest}" files)
set(removed 0)
set(errors 0)
foreach(file IN LISTS files)
  set(path "${destdir}${file}")
  if(IS_SYMLINK "${path}" OR EXISTS "${path}")
    if(IS_DIRECTORY "${path}" AND NOT IS_SYMLINK "${path}")
      message(STATUS "Not removed (a directory now): ${path}")
      math(EXPR errors "${errors} + 1")
      continue()
    endif()
    file(REMOVE "${path}")
    if(IS_SYMLINK "${path}" OR EXISTS "${path}")
      message(STATUS "Could not remove: ${path}")
      math(EXPR errors "${errors} + 1")
    else()
      message(STATUS "Removed: ${path}")
      math(EXPR removed "${removed} + 1")
    endif()
  else()
    message(STATUS "Already gone: ${path}")
  endif()
endforeach()

# Deepest first: a directory's children before it.
list(SORT CSUM_INSTALLED_DIRS ORDER DESCENDING)
set(removed_dirs 0)
foreach(dir IN LISTS CSUM_INSTALLED_DIRS)
  if(NOT IS_DIRECTORY "${dir}" OR IS_SYMLINK "${dir}")
    continue()
  endif()
  file(GLOB left LIST_DIRECTORIES true "${dir}/*" "${dir}/.*")
  if(left)
    message(STATUS "Kept (not empty): ${dir}")
  else()
    file(REMOVE_RECURSE "${dir}") # empty: nothing but the directory itself
    message(STATUS "Removed directory: ${dir}")
    math(EXPR removed_dirs "${removed_dirs} + 1")
  endif()
endforeach()

if(errors GREATER 0)
  message(FATAL_ERROR "make uninstall: ${errors} file(s) could not be removed; "
          "${manifest} is kept")
endif()
file(REMOVE "${manifest}" "${record}")
message("make uninstall: removed ${removed} file(s) and ${removed_dirs} directory(ies)")
