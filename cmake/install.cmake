# `cmake --install` and find_package(accel) (docs/cmake.md): the runtime libraries as
# accel::<room> imported targets (accel::core links them all), their headers under
# include/accel/ (included as "compiler/planner.hpp", as inside the kit), and the accel
# CLI as accel::accel. The Verilator device stays inside the CLI.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ACCEL_INSTALLED_ROOMS base hw ops graph compiler devices formats reference network
                          runtime)
set(ACCEL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/accel)

set(room_targets accel_core)
foreach(room IN LISTS ACCEL_INSTALLED_ROOMS)
  list(APPEND room_targets accel_${room})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/sw/${room}/
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/accel/${room}
          COMPONENT devel FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(TARGETS ${room_targets} accel EXPORT accelTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT devel
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT devel)
install(EXPORT accelTargets NAMESPACE accel:: DESTINATION ${ACCEL_CMAKE_DIR}
        COMPONENT devel)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/accelConfig.cmake.in
  ${PROJECT_BINARY_DIR}/accelConfig.cmake INSTALL_DESTINATION ${ACCEL_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/accelConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/accelConfig.cmake
              ${PROJECT_BINARY_DIR}/accelConfigVersion.cmake
        DESTINATION ${ACCEL_CMAKE_DIR} COMPONENT devel)
