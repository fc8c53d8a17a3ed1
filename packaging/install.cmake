# What `cmake --install` (and so the Debian package, packaging/deb.cmake)
# puts where, under GNUInstallDirs' names (docs/packaging.md). Included by
# CMakeLists.txt once the targets exist.

install(TARGETS mdsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Where cli/ssh_load.c looks when the module is not beside the program:
# MDSIM_MODULE_DIR, reached from the program's directory by a relative
# path, so a tree unpacked under another root still finds it.
install(TARGETS mdsim_ssh mdsim_http LIBRARY DESTINATION ${MDSIM_MODULE_DIR})

# The documentation side by side in docdir (the unit's Documentation=
# names docdir/systemd.md), the examples in docdir/examples. Debian wants
# the changelog gzipped with -9n (no name or time stamp in it).
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/changelog.gz
  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/packaging/debian/changelog ${CMAKE_BINARY_DIR}/changelog
  COMMAND gzip -9nf ${CMAKE_BINARY_DIR}/changelog
  DEPENDS ${CMAKE_SOURCE_DIR}/packaging/debian/changelog)
add_custom_target(changelog ALL DEPENDS ${CMAKE_BINARY_DIR}/changelog.gz)
install(FILES README.md packaging/debian/copyright ${CMAKE_BINARY_DIR}/changelog.gz
  DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY examples DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The systemd unit and the user it runs as, whatever packaging/systemd
# holds: its units, and its one sysusers file as sysusers.d/mdsim.conf.
file(GLOB units CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/packaging/systemd/*.service)
if(units)
  install(FILES ${units} DESTINATION lib/systemd/system)
endif()
file(GLOB sysusers CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/packaging/systemd/*.sysusers)
list(LENGTH sysusers n)
if(n GREATER 1)
  message(FATAL_ERROR "packaging/systemd: more than one *.sysusers file; mdsim installs one, as mdsim.conf")
elseif(n EQUAL 1)
  install(FILES ${sysusers} DESTINATION lib/sysusers.d RENAME mdsim.conf)
endif()
