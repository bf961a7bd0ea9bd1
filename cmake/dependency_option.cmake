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
