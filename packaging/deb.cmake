# The Debian package, built by CPack's DEB generator from the install
# rules (packaging/install.cmake): `make deb`, i.e. scripts/build-deb.sh.
# The choices and lintian's remaining words: docs/packaging.md.

# One version: the package's is the project's, and the changelog's top
# entry must say the same (a native package: no Debian revision).
file(STRINGS ${CMAKE_SOURCE_DIR}/packaging/debian/changelog top LIMIT_COUNT 1)
if(NOT top MATCHES "^mdsim \\(${PROJECT_VERSION}\\) ")
  message(FATAL_ERROR "packaging/debian/changelog: its first entry is not mdsim (${PROJECT_VERSION}); "
    "add an entry for the project's VERSION")
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME mdsim)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # mdsim_VERSION_ARCH.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "mdsim maintainers <maintainers@users.noreply.a-seed-b4cb508b.example>")
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Cisco MDS 9000 switch emulator for SAN extension labs")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"mdsim emulates the SAN extension side of a Cisco MDS 9000 switch: an
NX-OS style shell for IPS Gigabit Ethernet ports, FCIP tunnels, VSANs,
the IP Network Simulator and the SAN Extension Tuner. Each switch keeps
its configuration in SQLite, and a simulation engine carries the traffic
through the configured delays, rate limits and drops.

A lab of several switches is one process and one file, used from a
console, by replaying scripts and captured transcripts, or served over
telnet, SSH and a web page with a console per switch (a systemd template
unit serves one lab per instance).")

# The package is installed under the prefix it was configured for, so the
# program's relative path to its SSH module holds (scripts/build-deb.sh
# configures /usr).
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
# Depends from the ELF files' libraries (dpkg-shlibdeps: the modules'
# libssh and libcivetweb too), stripped files,
# root-owned 0644/0755 control files and directories whatever the umask.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
  OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
# The unit's user (sysusers.d/mdsim.conf) is made at install, not at the
# next boot; systemd rereads its units.
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  ${CMAKE_SOURCE_DIR}/packaging/debian/postinst ${CMAKE_SOURCE_DIR}/packaging/debian/postrm)
include(CPack)
