# `cmake --install`: the `sched` command, the libraries with their public headers, and a package
# configuration so that another CMake project can write
#
#   find_package(sched REQUIRED)
#   target_link_libraries(app PRIVATE sched::driver)   # instances, engine runs, the judge
#
# Headers keep their paths (include/sched/interpreter/ast.hpp is #include "interpreter/ast.hpp").
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SCHED_LIBRARIES sched_interpreter sched_polyhedral sched_bigstep sched_smallstep sched_codegen sched_verifier sched_scheduler sched_hazards
                    sched_fuzz sched_campaign sched_driver)
foreach(lib IN LISTS SCHED_LIBRARIES)
  string(REPLACE "sched_" "" short ${lib})
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${short})
  target_include_directories(${lib} PUBLIC $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/sched>)
endforeach()

install(TARGETS sched ${SCHED_LIBRARIES} EXPORT schedTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(dir interpreter polyhedral bigstep smallstep codegen verifier scheduler hazards fuzz driver)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/sched/${dir}
          FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(FILES ${PROJECT_BINARY_DIR}/generated/sched/version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/sched/sched)
install(EXPORT schedTargets NAMESPACE sched:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sched)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/schedConfig.cmake.in ${PROJECT_BINARY_DIR}/schedConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sched)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/schedConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/schedConfig.cmake ${PROJECT_BINARY_DIR}/schedConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/sched)
